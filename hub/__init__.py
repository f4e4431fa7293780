"""Composition: event model, intake, store, round clock, service, console and command line."""
