"""Zashiki: an authoritative room server for six Japanese card games."""
