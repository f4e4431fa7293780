"""Standings as a TD reads them: views rebuilt from the store, places and their display."""
