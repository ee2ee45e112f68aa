"""The git miner on real local repositories with crafted histories, written to real stores."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from git_history import METHODS, Repo, crafted_history
from uptake.graph.records import Node
from uptake.loaders.git import (
    _MARK,
    GitError,
    MinedState,
    MineResult,
    iter_records,
    mine_commits,
    mine_end,
    mine_framework,
    parse_file_diff,
    pr_number,
    resolve_repository,
    stretches,
)
from uptake.queries.run import run_query
from uptake.sync.git import sync_git


def mine_into(store, framework: str, path, methods, workers: int) -> MineResult:
    """What the miner found, after its records were written to `store`."""
    return sync_git(store, framework, path, methods, workers=workers).mined


def _implements(store, slug: str) -> list[dict]:
    return store.read(
        "MATCH (c:Commit)-[r:IMPLEMENTS]->(m:Method {slug: $slug}) "
        "RETURN c.sha AS sha, c.excluded AS excluded, r.rule AS rule, r.location AS location "
        "ORDER BY c.commit_ts",
        {"slug": slug},
    )


def test_pr_numbers_from_squash_and_merge_subjects():
    assert pr_number("Add GRPO trainer (#2565)") == 2565
    assert pr_number("Merge pull request #12 from someone/feature\n\nbody (#99)") == 12
    assert pr_number("Fix #12 in the loader") is None
    assert pr_number("Bump (#1) version") is None


def test_parse_file_diff_reads_status_counts_and_binary():
    added = parse_file_diff(
        "a/fw/x.py b/fw/x.py\nnew file mode 100644\nindex 0000000..1\n--- /dev/null\n+++ b/fw/x.py\n"
        "@@ -0,0 +1,2 @@\n+a\n+b"
    )
    assert (added.path, added.status, added.added, added.deleted) == ("fw/x.py", "A", 2, 0)
    renamed = parse_file_diff("a/old.py b/new.py\nsimilarity index 90%\nrename from old.py\nrename to new.py")
    assert (renamed.path, renamed.old_path, renamed.status) == ("new.py", "old.py", "R")
    binary = parse_file_diff(
        "a/l.png b/l.png\nnew file mode 100644\nBinary files /dev/null and b/l.png differ"
    )
    assert binary.binary and binary.path == "l.png" and binary.added == 0


def test_stretches_cover_history_in_order():
    shas = [f"{i:040x}" for i in range(1000)]
    assert [s.shas for s in stretches([("repo", shas)], workers=2)] == [shas]
    four = stretches([("a", shas), ("b", shas[:150])], workers=4)
    assert [(s.git_dir, len(s.shas)) for s in four] == [("a", 500), ("a", 500), ("b", 150)]
    assert [sha for s in four if s.git_dir == "a" for sha in s.shas] == shas


def test_the_two_ends_of_a_stretch_meet_without_overlap(tmp_path):
    repo, _ = crafted_history(tmp_path / "fw")
    shas = repo.git("rev-list", "--reverse", "HEAD").split()
    import uptake.loaders.git as git_module

    git_module._init_worker(METHODS)
    git_module._STRETCHES = [git_module.Stretch(str(resolve_repository(repo.path)), shas)]
    rear = mine_end(0, from_back=True)  # one end alone takes everything, newest first
    assert [c.sha for c in rear] == shas[::-1]
    assert mine_end(0, from_back=False) == []  # nothing left for the other end
    stretch = git_module.Stretch(git_module._STRETCHES[0].git_dir, shas)
    git_module._STRETCHES = [stretch]
    assert stretch.claim(from_back=True) and stretch.claim(from_back=True)
    assert [c.sha for c in mine_end(0, from_back=False)] == shas[:-2]
    assert stretch.claimed() == len(shas) and not stretch.claim(from_back=True)


def test_mining_in_parallel_equals_mining_in_one_process(tmp_path):
    repo, _ = crafted_history(tmp_path / "fw")
    shas = repo.git("rev-list", "--reverse", "HEAD").split()
    git_dir = str(resolve_repository(repo.path))
    one = [c for _, part in mine_commits([(git_dir, shas)], METHODS, workers=1) for c in part]
    heard = []
    mined = mine_commits([(git_dir, shas)], METHODS, workers=2, progress=lambda _, n: heard.append(n))
    two = [c for _, part in mined for c in part]
    assert [c.sha for c in two] == shas
    assert [(c.sha, c.links) for c in one] == [(c.sha, c.links) for c in two]
    assert sum(heard) == len(shas)


def test_the_miner_yields_records_and_its_new_state_last_without_a_store(tmp_path):
    repo, s = crafted_history(tmp_path / "fw")
    mining = mine_framework("fw", repo.path, METHODS, MinedState(), workers=1)
    records = list(mining.records)
    assert records[-1] == Node(
        "Framework", "fw", {"mined_head": repo.head(), "mined_tags": records[-1].props["mined_tags"]}, "fw"
    )
    assert {r.key for r in records if isinstance(r, Node) and r.label == "Commit"} >= {s["grpo"], s["dr"]}
    assert mining.result.new_commits == int(repo.git("rev-list", "--count", "HEAD"))

    # Handed the state it wrote, it has nothing to do; handed a rewritten one, it says what dropped.
    state = MinedState(repo.head(), records[-1].props["mined_tags"])
    assert mine_framework("fw", repo.path, METHODS, state, workers=1).result.up_to_date
    gone = "f" * 40
    rewritten = MinedState(gone, None, frozenset({gone, s["grpo"]}))
    pushed = mine_framework("fw", repo.path, METHODS, rewritten, workers=1)
    first = next(pushed.records)
    assert first == Node("Commit", gone, {"excluded": "no longer on HEAD (force-push)"}, "fw force-push")
    assert pushed.result.force_push and pushed.result.abandoned == 1


def test_full_mine_of_a_crafted_history(store, tmp_path):
    repo, s = crafted_history(tmp_path / "fw")
    result = mine_into(store, "fw", repo.path, METHODS, workers=1)
    assert result.new_commits == int(repo.git("rev-list", "--count", "HEAD"))
    commits = {
        r["sha"]: r
        for r in store.read(
            "MATCH (c:Commit)-[:PART_OF]->(:Framework {slug: 'fw'}) RETURN c.sha AS sha, c.pr_number AS pr, "
            "c.subject AS subject, c.files_changed AS files, c.insertions AS ins, c.is_merge AS merge, "
            "c.author_domain AS domain, c.parents AS parents"
        )
    }
    assert s["side"] not in commits  # only history reachable from HEAD
    assert commits[s["grpo"]]["pr"] == 5 and commits[s["grpo"]]["files"] == 2
    assert commits[s["merge"]]["pr"] == 12 and commits[s["merge"]]["merge"] is True
    assert commits[s["empty"]]["files"] == 0
    assert commits[s["binary"]]["files"] == 1 and commits[s["binary"]]["ins"] == 0
    assert "\ufffd" in commits[s["latin1"]]["subject"] or "é" in commits[s["latin1"]]["subject"]
    assert commits[s["root"]]["domain"] == "example.org"

    grpo = _implements(store, "grpo")
    assert grpo[0]["sha"] == s["grpo"] and grpo[0]["rule"].split(";")[0] in ("class-def", "new-file")
    assert s["gspo_rename"] not in [r["sha"] for r in grpo]  # a moved file is not a new implementation
    docs = store.read(
        "MATCH (c:Commit {sha: $sha})-[r:MENTIONS]->(m:Method {slug: 'grpo'}) RETURN r.rule AS rule",
        {"sha": s["docs_grpo"]},
    )
    assert docs and docs[0]["rule"] in ("doc-mention", "commit-message")
    paper = store.read(
        "MATCH (c:Commit {sha: $sha})-[r:MENTIONS]->(p:Paper) RETURN p.arxiv_id AS id, r.location AS loc",
        {"sha": s["docs_grpo"]},
    )
    assert paper == [{"id": "2402.03300", "loc": "docs/grpo.md:1"}]
    dapo = _implements(store, "dapo")
    assert dapo[0]["sha"] == s["dapo"] and dapo[0]["location"].endswith("grpo_trainer.py:3")
    dr = _implements(store, "dr-grpo")
    assert [r["sha"] for r in dr] == [s["dr"]] and dr[0]["excluded"].startswith("reverted by")
    assert _implements(store, "gpg") == []  # GnuPG in a shell script
    assert _implements(store, "kto") == []  # vendored third-party code
    assert [r["sha"] for r in _implements(store, "icepop")] == [s["feature"]]  # reached through the merge

    releases = {
        r["tag"]: r
        for r in store.read("MATCH (r:Release) RETURN r.tag AS tag, r.commit_sha AS sha, r.release_date AS d")
    }
    assert set(releases) == {"v0.1", "v0.2", "side-0.1"}  # a tag on a side branch is still a release
    first = dict(
        (r["sha"], r["tag"])
        for r in store.read("MATCH (c:Commit)-[:RELEASED_IN]->(r:Release) RETURN c.sha AS sha, r.tag AS tag")
    )
    assert first[s["root"]] == "v0.1" and first[s["grpo"]] == "v0.1"
    # The side branch's tag is older than v0.2 and contains what main had when it branched off.
    assert first[s["dapo"]] == "side-0.1" and first[s["gpg"]] == "v0.2" and first[s["merge"]] == "v0.2"
    assert s["side"] not in first


def test_incremental_rerun_and_force_push(store, tmp_path):
    repo, s = crafted_history(tmp_path / "fw")
    mine_into(store, "fw", repo.path, METHODS, workers=1)
    again = mine_into(store, "fw", repo.path, METHODS, workers=1)
    assert again.up_to_date and again.new_commits == 0

    new = repo.commit("Add loss_type dapo", {"fw/loss.py": 'if loss_type == "dapo":\n    pass\n'})
    step = mine_into(store, "fw", repo.path, METHODS, workers=1)
    assert step.new_commits == 1 and not step.force_push
    assert store.read("MATCH (f:Framework {slug: 'fw'}) RETURN f.mined_head AS h") == [{"h": new}]

    repo.git("reset", "-q", "--hard", s["merge"])  # drop `new`, then push something else
    other = repo.commit("Another change", {"fw/other.py": "y = 1\n"})
    pushed = mine_into(store, "fw", repo.path, METHODS, workers=1)
    assert pushed.force_push and pushed.new_commits == 1 and pushed.abandoned == 1
    gone = store.read("MATCH (c:Commit {sha: $sha}) RETURN c.excluded AS e", {"sha": new})
    assert gone[0]["e"].startswith("no longer on HEAD")
    assert store.read("MATCH (c:Commit {sha: $sha}) RETURN c.sha AS sha", {"sha": other}) == [{"sha": other}]


def test_missing_path_and_corrupt_repository_are_clear_errors(store, tmp_path):
    with pytest.raises(GitError, match="does not exist"):
        resolve_repository(tmp_path / "nowhere")
    (tmp_path / "plain").mkdir()
    with pytest.raises(GitError, match="not a git repository"):
        resolve_repository(tmp_path / "plain")
    repo, s = crafted_history(tmp_path / "fw")
    # A copy without one file's content (as a partial clone): the commits whose diffs need it are
    # mined without that file's lines and stored as incomplete; the others are whole.
    partial = tmp_path / "partial.git"
    shutil.copytree(repo.path / ".git", partial)
    blob = repo.git("rev-parse", f"{s['dapo']}:fw/grpo_trainer.py")
    (partial / "objects" / blob[:2] / blob[2:]).unlink()
    skipped = mine_into(store, "fw", partial, METHODS, workers=2)
    assert skipped.new_commits == int(repo.git("rev-list", "--count", "HEAD"))
    touching = repo.git("log", "--format=%H", "--", "fw/grpo_trainer.py").split()
    needing = {sha for sha in touching if blob in repo.git("show", "--raw", "--no-abbrev", "--format=", sha)}
    assert s["dapo"] in needing and len(touching) > len(needing)
    rows = {
        r["sha"]: r
        for r in store.read("MATCH (c:Commit) WHERE c.sha IN $shas RETURN c.sha AS sha, c.paths AS paths, "
                            "c.missing_paths AS missing, c.incomplete AS incomplete", {"shas": touching})
    }  # fmt: skip
    assert all("fw/grpo_trainer.py" in rows[sha]["paths"] for sha in touching)  # changed, read or not
    assert [rows[sha]["incomplete"] for sha in touching] == [sha in needing for sha in touching]
    unread = ["fw/grpo_trainer.py" in rows[sha]["missing"] for sha in touching]
    assert unread == [sha in needing for sha in touching]
    # A corrupt copy: a commit object is garbage. The error names the repository.
    corrupt = tmp_path / "corrupt.git"
    shutil.copytree(repo.path / ".git", corrupt)
    target = corrupt / "objects" / s["grpo"][:2] / s["grpo"][2:]
    target.chmod(0o644)
    target.write_bytes(b"garbage")
    with pytest.raises(GitError, match="corrupt.git"):
        mine_into(store, "fw2", corrupt, METHODS, workers=1)
    # Nothing claims that history was mined: the next run starts from scratch.
    assert store.read("MATCH (f:Framework {slug: 'fw2'}) RETURN f.mined_head AS h") == []
    done = mine_into(store, "fw2", repo.path, METHODS, workers=1)
    assert done.new_commits == int(repo.git("rev-list", "--count", "HEAD"))


def test_bare_repository_is_accepted(store, tmp_path):
    repo, s = crafted_history(tmp_path / "fw")
    bare = tmp_path / "fw.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.path), str(bare)], check=True)
    assert resolve_repository(bare) == bare.resolve()
    mine_into(store, "fw", bare, METHODS, workers=1)
    assert _implements(store, "grpo")[0]["sha"] == s["grpo"]


def test_stored_queries_answer_first_implementation(store, tmp_path):
    repo, s = crafted_history(tmp_path / "fw")
    mine_into(store, "fw", repo.path, METHODS, workers=1)
    from uptake.graph.records import Node

    store.write([Node("Paper", "2402.03300", {"published_date": "2024-02-05"}), Node("Method", "grpo", {
        "arxiv_id": "2402.03300", "name": "GRPO"})])  # fmt: skip
    rows = run_query(store, "paper-implementations", {"arxiv_id": "2402.03300"}).rows
    assert len(rows) == 1
    row = rows[0]
    assert (row["framework"], row["method"], row["commit"], row["pr_number"], row["release"]) == (
        "fw", "grpo", s["grpo"], 5, "v0.1",
    )  # fmt: skip
    commit_day = store.read("MATCH (c:Commit {sha: $s}) RETURN c.commit_day AS d", {"s": s["grpo"]})[0]["d"]
    assert row["days_after_paper"] == commit_day - 19758  # 2024-02-05
    by_method = {r["method"]: r for r in run_query(store, "framework-methods", {"framework": "fw"}).rows}
    assert by_method["grpo"]["commit"] == s["grpo"]
    assert by_method["dapo"]["commit"] == s["dapo"] and by_method["dapo"]["release"] == "side-0.1"
    assert "dr-grpo" not in by_method  # reverted
    assert by_method["icepop"]["commit"] == s["feature"]


def test_empty_repository_is_refused(tmp_path):
    Repo(tmp_path / "empty")
    with pytest.raises(GitError, match="HEAD does not resolve"):
        resolve_repository(tmp_path / "empty")


@pytest.mark.parametrize("chunk", [1, 3, 64, 1 << 20])
def test_records_are_split_the_same_whatever_the_read_size(chunk):
    records = [b"a" * n + "é".encode() for n in range(0, 400, 7)] + [b"bad \xff utf-8"]
    data = b"".join(_MARK + r for r in records)
    found = list(iter_records(data[i : i + chunk] for i in range(0, len(data), chunk)))
    assert found == [r.decode("utf-8", "replace") for r in records]
