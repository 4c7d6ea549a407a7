"""Packaging hook (the metadata is in setup.cfg): the rule folders ship inside the package.

Maintainers edit rules/, formulas/, keyword_tables/ and es_mappings/ at the top of the repository;
a built wheel carries a copy of them in fin_qa/_data, which fin_qa.config.default_rules_root() finds.
An editable install (pip install -e .) reads the repository's own folders instead. The sdist carries
the folders at its top (MANIFEST.in), so a wheel built from it gets them too.
"""
from pathlib import Path
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
RULE_FOLDERS = ("rules", "formulas", "keyword_tables", "es_mappings")


class BuildPyWithRules(build_py):
    def run(self):
        editable = getattr(self, "editable_mode", False)
        if not editable:
            # a module or rule file deleted since the last build in this tree must not ship again
            shutil.rmtree(Path(self.build_lib) / "fin_qa", ignore_errors=True)
        super().run()
        if editable:
            return
        target = Path(self.build_lib) / "fin_qa" / "_data"
        for name in RULE_FOLDERS:
            src = ROOT / name
            if not src.is_dir():
                raise SystemExit(f"setup.py: the rules folder {src} is missing")
            shutil.copytree(src, target / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildPyWithRules})
