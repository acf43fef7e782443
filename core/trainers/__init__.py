"""Trainers: generators that yield events and return a trained model (see `core.events`)."""
