"""loaders/link"""
