"""The scripts under test: each script of scripts/ loaded as a module by its file name (their
names hold hyphens, so they cannot be imported by name)."""

import importlib.util
import os

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def load(file_name, module_name):
    """scripts/FILE_NAME as a module called MODULE_NAME."""
    spec = importlib.util.spec_from_file_location(module_name, os.path.join(SCRIPTS, file_name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
