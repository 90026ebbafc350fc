"""Searching the disk for an encrypted store's text.

A test types a sentinel word, unique to it, through one of memo's faces into an encrypted
store, then looks for the word in every file of the places memo could leave text in: the
store's folder, $XDG_STATE_HOME, $XDG_CACHE_HOME, $XDG_RUNTIME_DIR and /tmp (with $TMPDIR
unset, memo's default for temporary files). The test's own inputs (a script holding the
word, say) go in `inputs`, which is not searched."""
import os
import pathlib
import uuid

PASSPHRASE_COMMAND = "printf '%s\\n' 'correct horse battery staple'"


def sentinel():
    """A word no other file on the machine holds."""
    return "sentinel" + uuid.uuid4().hex


class SealedPlaces:
    """An environment whose private places are folders of the test's own, and an encrypted
    store in `store_folder`."""

    def __init__(self, environment, tmp_path):
        self.root = tmp_path
        self.store_folder = tmp_path / "store"
        self.state = tmp_path / "state"
        self.cache = tmp_path / "cache"
        self.runtime = tmp_path / "runtime"
        self.inputs = tmp_path / "inputs"
        for folder in (self.store_folder, self.state, self.cache, self.runtime, self.inputs):
            folder.mkdir()
        self.runtime.chmod(0o700)
        self.store = self.store_folder / "private.sqlite"
        self.environment = dict(
            environment, XDG_STATE_HOME=str(self.state), XDG_CACHE_HOME=str(self.cache),
            XDG_RUNTIME_DIR=str(self.runtime), MEMO_PASSPHRASE_COMMAND=PASSPHRASE_COMMAND)
        self.environment.pop("TMPDIR", None)

    def searched(self):
        return [self.store_folder, self.state, self.cache, self.runtime, pathlib.Path("/tmp"),
                pathlib.Path(self.environment["HOME"])]

    def files_holding(self, word):
        """Every file in the searched places that holds `word` (as UTF-8), but the inputs."""
        needle = word.encode()
        found = []
        for place in self.searched():
            for folder, folders, files in os.walk(place):
                if pathlib.Path(folder) == self.inputs:
                    folders.clear()
                    continue
                folders[:] = [name for name in folders if pathlib.Path(folder, name) != self.inputs]
                for name in files:
                    path = pathlib.Path(folder, name)
                    try:
                        if path.is_file() and not path.is_symlink() and needle in path.read_bytes():
                            found.append(str(path))
                    except OSError:
                        pass  # gone meanwhile, or unreadable: another test's
        return found
