"""Hearth's brain: a turn, local voice commands, the supervisor of the voice process, the CLI."""
