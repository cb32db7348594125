"""Business logic: the only code that opens a transaction around a game and changes it."""
