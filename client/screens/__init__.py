"""The screens of the terminal client, one module each: what a screen holds and what its keys do.
"""
