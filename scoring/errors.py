"""The one error type for invalid scoring input."""


class ScoringInputError(ValueError):
    """Invalid input to a scoring function.

    ``field`` names the offending input (``contract``, ``result``, ``declarer`` ...) so a
    terminal or a file reader can point at it; the message says what is allowed.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
