"""A Unigram vocabulary full of exact ties (a + a == aa, ▁ + a == ▁a, a + b == ab ...): a tie rule
must settle every one of them, so the compiled Viterbi and the peers can be compared on it."""

TIED = [
    ("<unk>", 0.0),
    ("▁", -1.0),
    ("a", -1.0),
    ("b", -1.0),
    ("aa", -2.0),
    ("▁a", -2.0),
    ("ab", -2.0),
    ("aaa", -3.0),
    ("aab", -3.0),
    ("먹", -1.5),
    ("먹고", -2.5),
    ("고", -1.0),
]
