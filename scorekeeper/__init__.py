"""hachi-score: the score keeper for 八八 (Hachi-hachi), SDIN rules."""

__version__ = "0.1.0"
