"""First implementations that generalise, on a real git history built here: prose in code, string
literals that select nothing, ambiguous names, learned aliases, unreached modules, vendored copies
and recipes, each mined by the product's miner into real stores and read back by stored queries."""

from __future__ import annotations

import json

import pytest
from git_history import METHODS, Repo
from uptake.graph.records import Node
from uptake.loaders.git import mine_repository
from uptake.loaders.release import write_release
from uptake.queries.run import run_query
from uptake.sync.git import sync_git
from uptake.sync.release import sync_data_release

VENDORED = ("otherfw",)


def generalise_history(path) -> tuple[Repo, dict[str, str]]:
    r = Repo(path)
    s: dict[str, str] = {}
    s["root"] = r.commit("Initial commit", {"README.md": "# fw\n", "fw/__init__.py": ""})
    # Prose in code: a docstring listing methods, a TODO, a log message, a command line.
    s["prose"] = r.commit(
        "Document the losses",
        {
            "fw/losses.py": (
                'def loss(x):\n    """Supported: sigmoid. TODO: DAPO with epsilon_high."""\n'
                '    logger.info("dapo is not supported")\n'
                '    cmd = ["python", "-m", "fw.train", "--algo", "dapo"]\n    return x\n'
            )
        },
    )
    # An ambiguous name with no second signal, then the change that cites the paper.
    s["ipo-word"] = r.commit(
        "Refactor options", {"fw/options.py": 'def pick(mode):\n    if mode == "ipo":\n        return 1\n'}
    )
    s["ipo"] = r.commit(
        "Preference loss from arXiv:2310.12036",
        {"fw/prefs.py": 'def pick(mode):\n    if mode == "ipo":\n        return 2\n'},
    )
    # A change naming a broad method adds an ordinary value: not the method's spelling.
    s["grpo-device"] = r.commit(
        "Add GRPO offload support",
        {"fw/offload.py": 'def place(device):\n    if device == "cpu":\n        return 0\n'},
    )
    # The framework's own spelling of DAPO, learned from the subject and the new class carrying
    # the method's name; the new option value beside it names no method and is not learned.
    s["dapo"] = r.commit(
        "Add DAPO token aggregation (#7)",
        {
            "fw/agg.py": "class DapoTokenNorm:\n"
            "    def __call__(self, loss, mode):\n"
            '        if mode == "seq-mean-token-norm":\n'
            "            return loss.mean()\n"
        },
    )
    s["dapo-docs"] = r.commit("Docs: DAPO", {"docs/dapo.md": "Set seq-mean-token-norm for DAPO.\n"})
    # A module named after a method that nothing reaches, then the change that imports it.
    s["kto-module"] = r.commit("Add helpers", {"fw/losses_kto/kto.py": "def loss(x):\n    return x\n"})
    s["kto-wired"] = r.commit("Use the helpers", {"fw/trainer.py": "from fw.losses_kto.kto import loss\n"})
    # A copied tree of another framework, and a runnable recipe.
    s["vendored"] = r.commit("Copy a trainer", {"otherfw/trainers/gpg.py": "class GRPOTrainer:\n    pass\n"})
    s["recipe"] = r.commit(
        "Example: lite PPO",
        {"examples/run_lite.sh": "python -m fw.train scale_rewards=batch \\\n  --lr 1e-6\n"},
    )
    return r, s


def first_implementations(facts) -> dict[str, tuple[str, object]]:
    first: dict[str, tuple[str, object]] = {}
    for c in facts.commits:
        for link in c.links:
            if link.rel == "IMPLEMENTS" and not link.vendored and link.key not in first:
                first[link.key] = (c.sha, link)
    return first


@pytest.fixture(scope="module")
def mined(tmp_path_factory):
    repo, s = generalise_history(tmp_path_factory.mktemp("gen") / "fw")
    return repo, s, mine_repository("fw", repo.path, METHODS, workers=1, vendored=VENDORED)


def links_of(facts, sha: str) -> dict[tuple[str, str], object]:
    commit = next(c for c in facts.commits if c.sha == sha)
    return {(lk.rel, lk.key): lk for lk in commit.links}


def test_prose_and_unselecting_literals_never_implement(mined):
    _, s, facts = mined
    found = links_of(facts, s["prose"])
    assert ("IMPLEMENTS", "dapo") not in found
    assert found[("MENTIONS", "dapo")].rule in {"todo", "docstring", "string-literal"}


def test_ambiguous_name_needs_a_second_signal(mined):
    _, s, facts = mined
    alone = links_of(facts, s["ipo-word"])[("MENTIONS", "ipo")]
    assert "without a second signal" in alone.rule
    assert first_implementations(facts)["ipo"][0] == s["ipo"]
    assert first_implementations(facts)["ipo"][1].rule.endswith("arXiv id")


def test_learned_alias_from_subject_and_identifier(mined):
    _, s, facts = mined
    found = links_of(facts, s["dapo"])
    assert found[("SPELLS", "dapo")].identifier == "DapoTokenNorm"
    assert found[("SPELLS", "dapo")].location == "fw/agg.py:1"
    assert [k for k in found if k[0] == "SPELLS"] == [("SPELLS", "dapo")]  # the bare value taught nothing
    assert first_implementations(facts)["dapo"][0] == s["dapo"]
    assert ("SPELLS", "dapo") not in links_of(facts, s["dapo-docs"])  # docs teach nothing


def test_a_new_value_that_carries_no_name_teaches_nothing(mined):
    _, s, facts = mined
    found = links_of(facts, s["grpo-device"])
    assert ("SPELLS", "grpo") not in found and ("IMPLEMENTS", "grpo") not in found
    assert found[("MENTIONS", "grpo")].rule == "commit-message"


def test_unreached_module_then_wiring(mined):
    _, s, facts = mined
    assert links_of(facts, s["kto-module"])[("MENTIONS", "kto")].rule.startswith("new-file; nothing")
    sha, link = first_implementations(facts)["kto"]
    assert (sha, link.rule, link.identifier) == (s["kto-wired"], "wiring", "fw.losses_kto.kto")


def test_vendored_tree_and_recipe(mined):
    _, s, facts = mined
    copied = links_of(facts, s["vendored"])[("IMPLEMENTS", "grpo")]
    assert copied.vendored == "otherfw" and copied.confidence < 0.9
    assert "grpo" not in first_implementations(facts)  # the framework itself never had it
    sha, link = first_implementations(facts)["lite-ppo"]
    assert sha == s["recipe"] and link.evidence().props()["implementation"] == "recipe"


def test_a_fork_that_kept_its_parents_package_name_is_its_own_code(tmp_path):
    """Another framework's package name is a copy only while the repository has a package of its
    own: a repository whose only package at its head is `otherfw` is that framework's fork, and
    what it ships is its own; beside a package of its own the same tree is a copy."""
    trainer = {
        "otherfw/__init__.py": "",
        "otherfw/trainer.py": "class GRPOTrainer:\n    pass\n",
        "otherfw/main.py": "from otherfw.trainer import GRPOTrainer\n",
    }
    fork = Repo(tmp_path / "fork")
    fork.commit("Initial commit", {"README.md": "# fork\n", **trainer, "tests/__init__.py": ""})
    facts = mine_repository("fork", fork.path, METHODS, workers=1, vendored=VENDORED)
    assert first_implementations(facts)["grpo"][0] == fork.head()
    copy = Repo(tmp_path / "copy")
    copy.commit("Initial commit", {"README.md": "# copy\n", **trainer, "ownfw/__init__.py": ""})
    facts = mine_repository("copy", copy.path, METHODS, workers=1, vendored=VENDORED)
    assert "grpo" not in first_implementations(facts)
    assert links_of(facts, copy.head())[("IMPLEMENTS", "grpo")].vendored == "otherfw"


def test_a_fork_that_renamed_the_package_it_carried_keeps_its_history(tmp_path):
    """A repository whose only package was renamed from another framework's (`otherfw/` became
    `mine/`) is that framework's fork with its history: what the old name shipped is its own."""
    trainer = {
        "otherfw/__init__.py": "",
        "otherfw/trainer.py": "class GRPOTrainer:\n    pass\n",
        "otherfw/main.py": "from otherfw.trainer import GRPOTrainer\n",
    }
    repo = Repo(tmp_path / "fork")
    sha = repo.commit("Add the GRPO trainer", trainer)
    repo.git("mv", "otherfw", "mine")
    repo.commit("Rename the package")
    facts = mine_repository("mine", repo.path, METHODS, workers=1, vendored=VENDORED)
    assert first_implementations(facts)["grpo"][0] == sha
    # Without the rename, the same tree beside a package of its own stays a copy.
    copy = Repo(tmp_path / "copy")
    copy.commit("Add the GRPO trainer", {**trainer, "mine/__init__.py": ""})
    facts = mine_repository("mine", copy.path, METHODS, workers=1, vendored=VENDORED)
    assert "grpo" not in first_implementations(facts)


def test_a_package_without_an_init_file_is_the_repositorys_own_beside_a_copy(tmp_path):
    """A folder the code imports as a package (`from agent.tools import search`) is a package of
    the repository's own even without an `__init__.py`: beside it, `otherfw` is a copy. A recipe
    folder imported so, or a folder named like a library it does not hold, ships no package."""
    trainer = {
        "otherfw/__init__.py": "",
        "otherfw/trainer.py": "class GRPOTrainer:\n    pass\n",
        "otherfw/main.py": "from otherfw.trainer import GRPOTrainer\n",
    }
    for name, extra, copy in (
        (
            "own",
            {
                "agent/tools.py": "def search():\n    pass\n",
                "otherfw/run.py": "from agent.tools import search\n",
            },
            True,
        ),
        (
            "recipe",
            {"recipe/run/main.py": "x = 1\n", "otherfw/run.py": "from recipe.run.main import x\n"},
            False,
        ),
        (
            "library",
            {"evaluate/score.py": "x = 1\n", "otherfw/run.py": "from evaluate.metrics import f\n"},
            False,
        ),
    ):
        repo = Repo(tmp_path / name)
        sha = repo.commit("Initial commit", {"README.md": "# fork\n", **trainer, **extra})
        facts = mine_repository("fork", repo.path, METHODS, workers=1, vendored=VENDORED)
        assert ("grpo" not in first_implementations(facts)) is copy, name
        assert (links_of(facts, sha)[("IMPLEMENTS", "grpo")].vendored == "otherfw") is copy, name


def test_a_whole_repository_copied_into_a_folder_is_a_copy_whatever_project_it_is(tmp_path):
    """A folder holding a repository's CI settings (`.github/`) came whole from elsewhere, also
    from a project no catalog lists: its package's trees are a copy, and stay one after a move.
    Without those settings, or when the repository has a folder of that name of its own, the
    same tree is this repository's code."""
    project = {
        "pyproject.toml": "[project]\nname = 'toolkit'\n",
        "src/toolkit/__init__.py": "",
        "src/toolkit/train/grpo.py": "class GRPOTrainer:\n    pass\n",
        "src/toolkit/cli.py": "from toolkit.train.grpo import GRPOTrainer\n",
    }

    def copied_in(name, ci, own):
        repo = Repo(tmp_path / name)
        repo.commit("Initial commit", {"README.md": "# mine\n", "mine/__init__.py": "", **own})
        files = {f"train/Toolkit/{path}": text for path, text in project.items()}
        if ci:
            files["train/Toolkit/.github/workflows/tests.yml"] = "on: push\n"
        sha = repo.commit("Bring the training toolkit", files)
        (repo.path / "v1").mkdir()
        repo.git("mv", "train", "v1/train")
        repo.commit("Move the toolkit")
        return repo, sha

    repo, sha = copied_in("copy", True, {})
    facts = mine_repository("mine", repo.path, METHODS, workers=1, vendored=VENDORED)
    assert "grpo" not in first_implementations(facts)
    assert links_of(facts, sha)[("IMPLEMENTS", "grpo")].vendored == "toolkit"
    for name, ci, own in (("no-ci", False, {}), ("own-name", True, {"mine/toolkit/__init__.py": ""})):
        repo, sha = copied_in(name, ci, own)
        facts = mine_repository("mine", repo.path, METHODS, workers=1, vendored=VENDORED)
        assert first_implementations(facts)["grpo"][0] == sha, name


def test_a_copys_modules_copied_out_of_its_package_in_the_same_change_are_the_copys(tmp_path):
    """A change that brings another framework's tree and, beside it, some of that package's modules
    at the top (`hparams/args.py` next to `otherfw/hparams/args.py`) brought one copy: those
    modules are the copy's. The same module added with no copy in the change, or a module whose
    path only shares a file name with the copy's, is the repository's own."""
    args = 'def options(p):\n    p.add_argument("--loss", choices=["sigmoid", "ipo"], default="ipo")\n'
    copy = {"otherfw/__init__.py": "", "otherfw/hparams/__init__.py": "", "otherfw/hparams/args.py": args}
    cases = (
        ("beside", {**copy, "hparams/args.py": args}, False),
        ("alone", {"hparams/args.py": args}, True),
        ("same-name", {**copy, "mine/args.py": args}, True),
    )
    for name, change, own in cases:
        repo = Repo(tmp_path / name)
        repo.commit("Initial commit", {"README.md": "# mine\n", "mine/__init__.py": ""})
        sha = repo.commit("Preference loss from arXiv:2310.12036", change)
        facts = mine_repository("mine", repo.path, METHODS, workers=1, vendored=VENDORED)
        assert ("ipo" in first_implementations(facts)) is own, name
        if not own:
            assert links_of(facts, sha)[("IMPLEMENTS", "ipo")].vendored == "otherfw"


def test_a_repository_named_after_a_method_is_that_methods_code(tmp_path):
    """In its own history an ambiguous method name that is also the framework's name speaks of the
    framework (prime-rl's "prime"), unless the framework is named after the method as a whole (the
    PRIME repository): there the name is the method's, and the second signal its own word needs."""
    change = {"pkg/__init__.py": "", "pkg/prime.py": "def reward(x):\n    return x\n",
              "pkg/main.py": "from pkg.prime import reward\n"}  # fmt: skip
    for framework, implements in (("prime", True), ("prime-rl", False), ("other", False)):
        repo = Repo(tmp_path / framework)
        repo.commit("Add the reward worker", change)
        facts = mine_repository(framework, repo.path, METHODS, workers=1)
        assert ("prime" in first_implementations(facts)) is implements, framework
    # Its name in a message names the method there, as any method's name does elsewhere.
    repo = Repo(tmp_path / "named")
    repo.commit("Initial commit", {"pkg/__init__.py": "", "pkg/losses.py": "def loss(x):\n    return x\n"})
    sha = repo.commit("Add the PRIME reward", change)
    for framework, implements in (("prime", True), ("prime-rl", False)):
        facts = mine_repository(framework, repo.path, METHODS, workers=1)
        assert (links_of(facts, sha).get(("IMPLEMENTS", "prime")) is not None) is implements, framework


def test_stored_queries_read_spellings_kinds_and_vendored(store, tmp_path):
    repo, s = generalise_history(tmp_path / "fw")
    sync_git(store, "fw", repo.path, METHODS, workers=1, vendored=VENDORED)
    spelled = run_query(store, "method-spellings", {"method": "dapo"}).rows
    assert [(r["framework"], r["identifier"], r["commit"]) for r in spelled] == [
        ("fw", "DapoTokenNorm", s["dapo"])
    ]
    own = {r["method"]: r for r in run_query(store, "framework-methods", {"framework": "fw"}).rows}
    assert "grpo" not in own and own["lite-ppo"]["implementation"] == "recipe"
    assert own["dapo"]["implementation"] == "code" and own["kto"]["commit"] == s["kto-wired"]
    every = run_query(store, "framework-methods", {"framework": "fw", "include_vendored": True}).rows
    assert {r["method"]: r["vendored"] for r in every}["grpo"] is True
    # A paper's implementations, the same way: the copy counts only when asked for.
    store.write([Node("Method", "grpo", {"arxiv_id": "2402.03300"})])  # as the catalog stores it
    grpo_paper = {"arxiv_id": "2402.03300"}
    assert run_query(store, "paper-implementations", grpo_paper).rows == []
    copied = run_query(store, "paper-implementations", {**grpo_paper, "include_vendored": True}).rows
    assert [(r["framework"], r["commit"]) for r in copied] == [("fw", s["vendored"])]
    # The graph keeps the copy apart, so any query matching IMPLEMENTS (stored or ad hoc) reads only
    # the framework's own implementations.
    assert _links_from(store, s["vendored"]) == [("VENDORS", "grpo")]
    timeline = run_query(store, "adoption-timeline", {"slug": "grpo"}).rows
    assert all(s["vendored"] not in str(r) for r in timeline)


def _links_from(store, sha: str) -> list[tuple[str, str]]:
    return [
        (rel, row["slug"])
        for rel in ("IMPLEMENTS", "VENDORS")
        for row in store.execute(
            f"MATCH (c:Commit)-[:{rel}]->(m:Method) WHERE c.sha = $sha RETURN m.slug AS slug", {"sha": sha}
        )
    ]


def test_release_carries_spellings_kinds_and_vendored(mined, store, tmp_path):
    _, s, facts = mined
    folder = tmp_path / "release"
    write_release([facts], folder)
    rows = [json.loads(line) for line in (folder / "links.jsonl").open()]
    assert {"rel": "SPELLS", "key": "dapo", "identifier": "DapoTokenNorm"}.items() <= next(
        r for r in rows if r["rel"] == "SPELLS"
    ).items()
    assert any(r.get("vendored") is True for r in rows)
    assert {r.get("implementation") for r in rows if r["rel"] == "IMPLEMENTS"} == {"code", "recipe"}
    sync_data_release(store, folder)
    assert _links_from(store, s["vendored"]) == [("VENDORS", "grpo")]
    spelled = run_query(store, "method-spellings", {"method": "dapo"}).rows
    assert ("dapo", "DapoTokenNorm", s["dapo"]) in {
        (r["method"], r["identifier"], r["commit"]) for r in spelled
    }


def test_a_wrappers_copy_of_the_vendored_config_is_the_vendored_frameworks(tmp_path):
    """A wrapper that carries another framework's repository keeps its own copy of that
    framework's config at the same path ending: the switch it leaves off is the copy's option, and
    the commit that turns it on in the wrapper's config is the wrapper's first implementation."""
    r = Repo(tmp_path / "wrapper")
    defaults = "algorithm:\n  epsilon_high: null\n"
    r.commit(
        "Initial commit",
        {
            "ownfw/__init__.py": "",
            "otherfw/setup.py": "",
            "otherfw/otherfw/__init__.py": "",
            "otherfw/otherfw/trainer/config/ppo.yaml": defaults,
            "ownfw/trainer/config/ppo.yaml": defaults,
        },
    )
    on = r.commit("Tune the clip", {"ownfw/trainer/config/ppo.yaml": "algorithm:\n  epsilon_high: 0.28\n"})
    facts = mine_repository("wrapper", r.path, METHODS, workers=1, vendored=VENDORED)
    sha, link = first_implementations(facts)["dapo"]
    assert (sha, link.location) == (on, "ownfw/trainer/config/ppo.yaml:2")
