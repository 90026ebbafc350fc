"""A model-based checker of sync (docs/REFERENCE.md, Sync, issue 21): random use of 3–4 store files
through the CLI (add, edit, a move to another date (`edit ID --date`, with or without a new text),
tag, untag, delete, undo, redo, import, export→import into a new store,
a copy of a store file, a backup and its restore, scripted stores) with random pairwise syncs. After
rounds of syncs of every pair until one moves nothing, every store holds the same memos (uuid,
text, tags, dates), and:
- no text a user typed is gone unless a change that had seen it replaced or deleted it (or it
  lived only in a store that a backup was restored over);
- each memo is as its last changes left it, by what each change had seen (its store's own
  changes and what syncs brought): deleted when every last change deletes it, kept when one of
  them does not; the text and insert date of a last change of its text (an edit or a move); a
  tag its last changes added, not one they removed (text and tags merge separately);
- a new memo gets a uuid no other memo ever had;
- a memo no user change made is a @conflict copy of a text written concurrently with another
  text of its memo (a change that had seen the other's text makes no conflict).

The same checker runs over both transports: store files synced in one process, and every sync
through ssh (`memo sync HOST:PATH` to the throwaway sshd, the other store served by `memo sync
--serve`), where the result must be the same (issue 26).

Fixed seeds here; a longer run: MEMO_MODEL_SEEDS=$(seq -s, 1 100) MEMO_MODEL_STEPS=300 (through
ssh: MEMO_MODEL_SSH_SEEDS). A failure
prints the seed and the log of what ran, as a shell script to replay (commands name ids, which
a replay assigns alike; uuids and dates differ)."""
import json
import os
import random
import shlex
import shutil
import subprocess

import pytest

SEEDS = [int(seed) for seed in os.environ.get("MEMO_MODEL_SEEDS", "1,2,3,4,5,6,7,8").split(",")]
SSH_SEEDS = [int(seed) for seed in os.environ.get("MEMO_MODEL_SSH_SEEDS", "1,2").split(",")]
STEPS = int(os.environ.get("MEMO_MODEL_STEPS", "100"))
MOST_STORES = 7
MOST_SETTLING_ROUNDS = 6
TAGS = ("work", "home", "urgent", "later")


class Log:
    """Everything the checker did, as a shell script run in the stores' folder ($M is memo)."""

    def __init__(self, seed):
        self.lines = [f"# seed {seed}, {STEPS} steps"]

    def comment(self, text):
        self.lines.append(f"# {text}")

    def command(self, program, arguments):
        self.lines.append(" ".join([program] + [shlex.quote(str(argument)) for argument in arguments]))

    def file(self, name, text):
        self.lines.append(f"cat > {shlex.quote(name)} <<'END'\n{text}END")

    def __str__(self):
        return "\n".join(self.lines)


class Folder:
    """The store files, backups and input files of one run; each command is logged."""

    def __init__(self, binary, environment, path, log, through_ssh=False):
        self.binary, self.environment, self.path, self.log = binary, environment, path, log
        self.through_ssh = through_ssh
        if through_ssh:
            log.comment("syncs go through ssh: MEMO_SSH must reach the host memo-test, and $M be memo's full path")

    def sync(self, here, there, *options):
        """`sync` of two stores of the folder: the other by its path, or through ssh."""
        if not self.through_ssh:
            return self.memo(*options, "--store", here, "sync", there)
        return self.memo(*options, "--store", here, "sync", f"memo-test:{self.path / there}", "--remote-memo", self.binary)

    def memo(self, *arguments, allowed=(0,), read_only=False):
        if not read_only:
            self.log.command("$M", arguments)
        result = subprocess.run([self.binary] + [str(argument) for argument in arguments], cwd=self.path,
                                env=self.environment, capture_output=True, text=True)
        if result.returncode not in allowed:
            raise Discrepancy(f"exit {result.returncode} from memo {' '.join(map(str, arguments))}: {result.stderr.strip()}")
        return result.stdout

    def memos(self, store):
        """The live memos of a store, with their ids, oldest first (none before its file exists:
        reading a store file that is not there is an error, and creates nothing)."""
        if not (self.path / store).exists():
            return []
        listed = self.memo("--store", store, "--json", "list", "--asc", read_only=True)
        return [json.loads(line) for line in listed.splitlines()]

    def dump(self, store):
        """What must be equal across stores: every memo without its local id."""
        memos = [{key: value for key, value in memo.items() if key != "id"} for memo in self.memos(store)]
        return sorted(memos, key=lambda memo: json.dumps(memo, sort_keys=True))

    def copy(self, source, destination):
        self.log.command("cp", [source, destination])
        shutil.copyfile(self.path / source, self.path / destination)

    def write(self, name, text):
        self.log.file(name, text)
        (self.path / name).write_text(text)


class Discrepancy(Exception):
    """The binary broke a rule of sync (or failed a command that must work)."""


class Event:
    """One memo changed by one command in one store: what it was and became (text and tags, None
    when absent), and the events that store had seen before (its own, and what syncs brought)."""

    def __init__(self, number, store, uuid, before, after, seen, restores=False):
        self.number, self.store, self.uuid, self.before, self.after = number, store, uuid, before, after
        self.seen = frozenset(seen)
        # An undone sync that puts back other tags puts back the whole tag set it had before
        # the sync, at that set's own adds: a tag it keeps is added again, as far as the stores
        # that never saw that set are concerned. A tag it takes away was added by what the sync
        # brought, which it has not seen: its removal is concurrent with that add, which wins,
        # so it is no removal the end must show (the add may be a @conflict copy's, no event).
        self.restores = restores
        self.reasserts_tags = restores and before is not None and after is not None and before[1] != after[1]

    @property
    def deletes(self):
        return self.after is None

    @property
    def writes_text(self):
        """An edit of the words, or a move to another insert date: a sync merges both as the text."""
        return self.after is not None and (self.before is None or self.before[0::2] != self.after[0::2])

    @property
    def tags(self):
        """The tags it was about: those the memo had before or after."""
        return set().union(*(state[1] for state in (self.before, self.after) if state))

    def touches(self, tag):
        """Whether it added or removed the tag (a delete removes the memo, not its tags)."""
        if self.reasserts_tags and tag in self.after[1]:
            return True
        if self.restores and self.after is not None and tag not in self.after[1]:
            return False
        return self.after is not None and (tag in self.after[1]) != (self.before is not None and tag in self.before[1])

    def __repr__(self):
        return f"event {self.number} in {self.store}: {self.before} -> {self.after}"


def latest(events):
    """The events no other of them had seen: the concurrent last changes."""
    return [event for event in events if not any(event.number in other.seen for other in events)]


class History:
    """The changes users made, and which of them each store and backup has seen: a store sees its
    own changes, what a sync with a peer brings (both end up having seen what either had), and
    what the store it was copied, exported or restored from had seen."""

    def __init__(self, seed):
        self.seed, self.events, self.seen = seed, [], {}
        self.typed = []
        self.seen_gone = set()  # texts a change replaced or deleted in a store that showed them
        self.lost_in_restore = set()  # texts only the store a backup was restored over held

    def new_text(self, random_source):
        text = f"text {len(self.typed) + 1} of seed {self.seed} {random_source.choice(('', 'ünïcode ', '日本 '))}typed"
        self.typed.append(text)
        return text

    def new_store(self, store, like=None):
        self.seen[store] = set(self.seen[like]) if like else set()

    def record(self, store, before, after, unseen=None):
        """The events of one command in one store, from its memos before and after. An undone
        sync (`unseen`: the events it had brought) puts memos back without having seen what the
        sync brought of them: its events have not seen those, the store forgets them for the
        memos it put back, and what it replaced is not gone (the peer still holds it, and no
        exemption forgives its loss)."""
        events = []
        seen = self.seen[store] - (unseen or set())
        for uuid in sorted(before.keys() | after.keys()):
            if before.get(uuid) != after.get(uuid):
                events.append(Event(len(self.events) + len(events) + 1, store, uuid, before.get(uuid), after.get(uuid), seen,
                                    restores=unseen is not None))
                if unseen is not None:
                    continue
                if before.get(uuid) is not None and (after.get(uuid) is None or after[uuid][0] != before[uuid][0]):
                    self.seen_gone.add(before[uuid][0])
        self.events += events
        put_back = {event.uuid for event in events}
        self.seen[store] -= {number for number in unseen or () if self.events[number - 1].uuid in put_back}
        self.seen[store] |= {event.number for event in events}
        return events

    def check_new_memos(self, events):
        """A new memo's uuid is one no other memo ever had."""
        earlier = {event.uuid for event in self.events if event not in events}
        for event in events:
            if event.uuid in earlier:
                raise Discrepancy(f"a new memo got the uuid of another: {event} (first {next(e for e in self.events if e.uuid == event.uuid)})")

    def synced(self, here, there):
        """Both stores have seen what either had; returns the events each was brought."""
        both = self.seen[here] | self.seen[there]
        brought = {here: both - self.seen[here], there: both - self.seen[there]}
        self.seen[here], self.seen[there] = set(both), set(both)
        return brought

    def restored(self, backup, store, gone, back):
        """An older copy over its store: the texts only that store held are gone, until a backup
        brings them back; the store has seen what it had seen when the backup was taken."""
        self.lost_in_restore = (self.lost_in_restore | gone) - back
        self.seen[store] = set(self.seen[backup])

    def check(self, stores, final):
        """The settled stores' memos (uuid → text and tags) against the changes they have seen."""
        held = {state[0] for state in final.values()}
        lost = sorted(set(self.typed) - self.seen_gone - self.lost_in_restore - held)
        if lost:
            raise Discrepancy(f"typed texts that no change replaced or deleted are gone from every store: {lost}")
        invented = sorted(held - set(self.typed))
        if invented:
            raise Discrepancy(f"texts nobody typed: {invented}")
        known = set().union(*(self.seen[store] for store in stores))
        for uuid in sorted({event.uuid for event in self.events}):
            events = [event for event in self.events if event.uuid == uuid and event.number in known]
            if events:
                made_by_a_merge = not any(event.uuid == uuid and event.before is None for event in self.events)
                self.check_memo(uuid, events, final.get(uuid), made_by_a_merge)
        changed = {event.uuid for event in self.events}
        for uuid, (text, tags, _) in sorted(final.items()):
            if uuid not in changed:
                self.check_conflict_copy(uuid, text, tags)

    def check_conflict_copy(self, uuid, text, tags):
        """A memo no user change made is a @conflict copy of a text that lost to one written
        without seeing it: two changes wrote texts of one memo concurrently."""
        if "conflict" not in tags:
            raise Discrepancy(f"{uuid} ({text!r}) was made by no change and is no @conflict copy")
        writers = [event for event in self.events if event.writes_text]
        for event in writers:
            if event.after[0] == text and any(
                    other.uuid == event.uuid and other.after[0] != text and other.number not in event.seen
                    and event.number not in other.seen for other in writers):
                return
        raise Discrepancy(f"a @conflict copy of {text!r} ({uuid}), although every change that wrote a text of its memo "
                          f"had seen the others")

    @staticmethod
    def check_memo(uuid, events, memo, made_by_a_merge=False):
        last = latest(events)
        if all(event.deletes for event in last):
            if memo is not None and made_by_a_merge and "conflict" in memo[1]:
                # A merge that meets the same two texts again (an undone sync puts one back)
                # makes the same @conflict copy again, a version the delete had not seen.
                return
            if memo is not None:
                raise Discrepancy(f"{uuid} came back after a delete that had seen every change of it: {memo}; {last}")
            return
        if memo is None:
            raise Discrepancy(f"{uuid} is gone although a change no delete had seen kept it: {last}")
        text, tags, date = memo
        last_texts = {event.after[0::2] for event in latest([event for event in events if event.writes_text])}
        if last_texts and (text, date) not in last_texts:
            raise Discrepancy(f"{uuid} holds {text!r} at {date}, not the text and date of its last edit or move "
                              f"(one of {sorted(last_texts)}): {events}")
        for tag in sorted(set().union(*(event.tags for event in events))):
            last_touches = latest([event for event in events if event.touches(tag)])
            if last_touches and all(tag in event.after[1] for event in last_touches) and tag not in tags:
                raise Discrepancy(f"{uuid} lost the tag {tag!r} its last tag change added: {last_touches}")
            if made_by_a_merge and tag == "conflict":
                # A merge that meets the same two texts again makes the same @conflict copy again,
                # tagged anew (with the tags of the text it keeps): no change here had seen that.
                continue
            if last_touches and all(tag not in event.after[1] for event in last_touches) and tag in tags:
                raise Discrepancy(f"{uuid} has the tag {tag!r} its last tag change removed: {last_touches}")


def states(memos):
    """Each memo's text, tags and insert date, by uuid."""
    return {memo["uuid"]: (memo["content"], frozenset(memo["tags"]), memo["insertDate"]) for memo in memos}


class RandomUse:
    """The random phase: each step is one thing a user does to one store, or a sync of two."""

    def __init__(self, folder, history, random_source, stores):
        self.folder, self.history, self.random = folder, history, random_source
        self.stores, self.files = [], 0
        self.backups = {}  # backup file → the store it was taken of, and the texts it holds
        self.syncs = {}  # store file → {history seq of a sync there: the events it brought}
        for _ in range(stores):
            self.create(self.new_store(), lambda store: self.folder.memo("--store", store, "add", self.new_text()))

    def step(self):
        actions = {self.sync: 25, self.add: 12, self.edit: 10, self.move: 5, self.tag: 6, self.untag: 4, self.delete: 6,
                   self.undo: 5, self.undo_sync: 3, self.undo_a_sync: 3, self.redo: 3, self.import_records: 4, self.back_up: 3, self.restore: 2}
        if len(self.stores) < MOST_STORES:
            actions.update({self.export_into_new_store: 2, self.copy_store: 2, self.script_store: 3})
        action = self.random.choices(list(actions), weights=list(actions.values()))[0]
        action()

    def new_text(self):
        return self.history.new_text(self.random)

    def store(self):
        return self.random.choice(self.stores)

    def new_file(self, suffix):
        self.files += 1
        return f"f{self.files}{suffix}"

    def new_store(self, like=None, same_file=False):
        store = f"s{len(self.stores)}.sqlite"
        self.stores.append(store)
        self.history.new_store(store, like)
        self.syncs[store] = dict(self.syncs[like]) if same_file else {}
        return store

    def latest_entry(self, store):
        if not (self.folder.path / store).exists():
            return None
        listed = self.folder.memo("--store", store, "--json", "history", "-n", "1", read_only=True)
        return json.loads(listed) if listed.strip() else None

    def states(self, store):
        return states(self.folder.memos(store))

    def change(self, store, command):
        """Runs a command that changes one store, and records what it changed."""
        before = self.states(store)
        command(store)
        return self.history.record(store, before, self.states(store))

    def create(self, store, command):
        self.history.check_new_memos(self.change(store, command))

    def sync(self):
        self.sync_of(*self.random.sample(self.stores, 2))

    def sync_of(self, here, there):
        latest = {store: self.latest_entry(store) for store in (here, there)}
        self.folder.sync(here, there)
        brought = self.history.synced(here, there)
        for store in (here, there):
            entry = self.latest_entry(store)
            if entry and entry != latest[store] and entry["kind"] == "sync":
                self.syncs[store][entry["seq"]] = brought[store]

    def add(self):
        self.create(self.store(), lambda store: self.folder.memo("--store", store, "add", self.new_text()))

    def on_some_memo(self, command, which=lambda memo: True):
        store = self.store()
        memos = [memo for memo in self.folder.memos(store) if which(memo)]
        if memos:
            memo = self.random.choice(memos)
            self.change(store, lambda store: command(store, memo))

    def edit(self):
        self.on_some_memo(lambda store, memo: self.folder.memo("--store", store, "edit", memo["id"], self.new_text()))

    def move(self):
        """`edit ID --date WHEN`: alone, or with a new text in the same change."""
        when = f"20{self.random.randint(10, 29)}-0{self.random.randint(1, 9)}-1{self.random.randint(0, 9)}T0{self.random.randint(0, 9)}:30Z"
        with_text = self.random.random() < 0.3
        self.on_some_memo(lambda store, memo: self.folder.memo(
            "--store", store, "edit", memo["id"], "--date", when, *([self.new_text()] if with_text else [])))

    def delete(self):
        self.on_some_memo(lambda store, memo: self.folder.memo("--store", store, "delete", memo["id"]))

    def tag(self):
        self.on_some_memo(lambda store, memo: self.folder.memo("--store", store, "tag", memo["id"], self.random.choice(TAGS)))

    def untag(self):
        self.on_some_memo(lambda store, memo: self.folder.memo("--store", store, "untag", memo["id"], self.random.choice(memo["tags"])),
                          which=lambda memo: memo["tags"])

    def undo(self, command="undo"):
        """One-shot: the store's latest change, which may be a sync; refusing is allowed."""
        self.change(self.store(), lambda store: self.folder.memo("--store", store, command, allowed=(0, 1)))

    def undo_a_sync(self):
        """A sync, then `undo --sync` on one of its stores (an undo right after is seldom refused)."""
        here, there = self.random.sample(self.stores, 2)
        self.sync_of(here, there)
        self.undo_sync(self.random.choice((here, there)))

    def undo_sync(self, store=None):
        """`undo --sync`: the store's latest sync; refusing is allowed (none, or a later change)."""
        store = store or self.store()
        before = self.states(store)
        result = self.folder.memo("--store", store, "--json", "undo", "--sync", allowed=(0, 1))
        if result.strip():
            unseen = frozenset(self.syncs[store].get(json.loads(result)["seq"], set()))
            self.history.record(store, before, self.states(store), unseen=unseen)

    def redo(self):
        self.undo("redo")

    def import_records(self):
        records = self.new_file(".jsonl")
        self.folder.write(records, "".join(
            json.dumps({"content": self.new_text(), "tags": self.random.sample(TAGS, self.random.randint(0, 2))}) + "\n"
            for _ in range(self.random.randint(1, 3))))
        self.create(self.store(), lambda store: self.folder.memo("--store", store, "import", records))

    def export_into_new_store(self):
        exported, source = self.new_file(".jsonl"), self.store()
        self.folder.memo("--store", source, "export", exported)
        self.folder.memo("--store", self.new_store(like=source), "import", exported)

    def copy_store(self):
        source = self.store()
        self.folder.copy(source, self.new_store(like=source, same_file=True))

    def script_store(self):
        script = self.new_file(".memo")
        self.folder.write(script, "".join(f"add {self.new_text()}\n" for _ in range(self.random.randint(1, 3))))
        self.create(self.new_store(), lambda store: self.folder.memo("run", "--store", store, script))

    def texts(self, store):
        return {memo["content"] for memo in self.folder.memos(store)}

    def back_up(self):
        store, backup = self.store(), self.new_file(".backup")
        self.backups[backup] = (store, self.texts(store))
        self.folder.copy(store, backup)
        self.history.new_store(backup, like=store)
        self.syncs[backup] = dict(self.syncs[store])

    def restore(self):
        if self.backups:
            backup = self.random.choice(sorted(self.backups))
            store, back = self.backups[backup]
            elsewhere = set().union(*(self.texts(other) for other in self.stores if other != store))
            self.history.restored(backup, store, self.texts(store) - elsewhere - back, back)
            self.folder.copy(backup, store)
            self.syncs[store] = dict(self.syncs[backup])


def settle(folder, stores):
    """Every pair in a fixed order, round after round, until a round moves nothing."""
    for round_number in range(1, MOST_SETTLING_ROUNDS + 1):
        folder.log.comment(f"settling round {round_number}")
        before = [folder.dump(store) for store in stores]
        moved = 0
        for index, here in enumerate(stores):
            for there in stores[index + 1:]:
                synced = json.loads(folder.sync(here, there, "--json"))
                moved += synced["sent"] + synced["received"]
        if moved == 0 and [folder.dump(store) for store in stores] == before:
            return
    raise Discrepancy(f"the stores still move memos after {MOST_SETTLING_ROUNDS} rounds of syncs")


def check_the_end(folder, history, stores):
    settle(folder, stores)
    first = folder.dump(stores[0])
    for store in stores[1:]:
        dumped = folder.dump(store)
        if dumped != first:
            only_first = [memo for memo in first if memo not in dumped]
            only_here = [memo for memo in dumped if memo not in first]
            raise Discrepancy(f"{stores[0]} and {store} differ after settling:\n"
                              f"  only in {stores[0]}: {only_first}\n  only in {store}: {only_here}")
    history.check(stores, states(first))


@pytest.mark.parametrize("seed", SEEDS)
def test_random_use_and_syncs_converge_without_losing_a_typed_text(memo_binary, environment, tmp_path, seed):
    run_the_model(Folder(memo_binary, environment, tmp_path, Log(seed)), seed)


@pytest.mark.parametrize("seed", SSH_SEEDS)
def test_random_use_and_syncs_through_ssh_converge_without_losing_a_typed_text(memo_binary, ssh_environment, tmp_path, seed):
    run_the_model(Folder(memo_binary, ssh_environment, tmp_path, Log(seed), through_ssh=True), seed)


def run_the_model(folder, seed):
    log, history, random_source, tmp_path = folder.log, History(seed), random.Random(seed), folder.path
    try:
        use = RandomUse(folder, history, random_source, stores=random_source.randint(3, 4))
        for step in range(STEPS):
            log.comment(f"step {step + 1}")
            use.step()
        check_the_end(folder, history, use.stores)
        return
    except Discrepancy as discrepancy:
        found = discrepancy
    (tmp_path / "replay.sh").write_text(f"{log}\n")
    pytest.fail(f"seed {seed}: {found}\n(replay: {tmp_path}/replay.sh with M=memo, in an empty folder)\n"
                f"--- operation log ---\n{log}", pytrace=False)
