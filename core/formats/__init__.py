"""Reading and writing tokenizer files. Models and trainers know nothing of files."""
