"""The packages of the wheel, found rather than listed (everything else is in pyproject.toml).

`core` and `app` are found as usual. `resources/` (sentence models, stop lists, report
templates, samples) ships inside the wheel as the package `doppel_resources`, with each of its
folders listed as a subpackage so setuptools carries their files without warnings: `pip install
doppel-check` then works without the source tree (core/resources.py finds it)."""

from setuptools import find_namespace_packages, find_packages, setup

RESOURCES = "doppel_resources"
resource_packages = [
    RESOURCES,
    *(
        f"{RESOURCES}.{folder}"
        for folder in find_namespace_packages(where="resources", exclude=["*__pycache__*"])
    ),
]

setup(
    packages=[*find_packages(include=["core", "core.*", "app", "app.*"]), *resource_packages],
    package_dir={RESOURCES: "resources"},
    package_data={package: ["*"] for package in resource_packages},
    exclude_package_data={package: ["*.py", "*.pyc"] for package in resource_packages},
)
