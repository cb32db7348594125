"""Colt Express (Ludonaute, 2014) with the Time Machine expansion as a ruleset option."""
