"""Ears and mouth: sources and sinks, wake word, voice activity, speech-to-text, text-to-speech, the listener."""
