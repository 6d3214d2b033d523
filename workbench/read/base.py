"""What every loader shares: one method, ``load(data, name, **options) -> Document``, and one registry.

A loader is registered by a stable id and claims the file extensions it reads; the registry refuses a
second claim on an extension, so which loader reads a file is never decided by import order.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath
from typing import TypeVar

from workbench.core.model import Document
from workbench.core.registry import Registry

T = TypeVar("T", bound="type[Loader]")


class Loader:
    """Turns a file's bytes into a Document. Subclasses set the facts below and implement ``load``.

    ``options`` are what the user chose on the Document page or the command line (``sheet``,
    ``name_column``); a loader takes the ones it understands and ignores the rest.
    """

    id: str = ""
    order: int  # where it is listed (the upload box's file types, the README's list)
    kind: str = "markdown"  # the Document.kind it makes: "markdown" (sections) or "spreadsheet" (products)
    extensions: tuple[str, ...] = ()  # lower case, with the dot

    def load(self, data: bytes, name: str, **options: object) -> Document:
        raise NotImplementedError


class LoaderRegistry(Registry[Loader]):
    """A Registry that also refuses an extension another loader already claims."""

    def register(self, id: str) -> Callable[[type[Loader]], type[Loader]]:
        decorate = super().register(id)

        def claim(cls: type[Loader]) -> type[Loader]:
            for extension in cls.extensions:
                owner = self.for_extension(extension)
                if owner is not None:
                    raise ValueError(f"loader {id!r} claims {extension}, which {owner.id!r} already reads")
            return decorate(cls)

        return claim

    def for_extension(self, extension: str) -> type[Loader] | None:
        return next((self.get(id) for id in self.ids() if extension.lower() in self.get(id).extensions), None)

    def for_name(self, name: str) -> type[Loader] | None:
        return self.for_extension(PurePath(name).suffix)

    def extensions(self) -> tuple[str, ...]:
        return tuple(extension for id in self.ids() for extension in self.get(id).extensions)


LOADERS = LoaderRegistry("loader")
