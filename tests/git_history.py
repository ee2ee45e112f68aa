"""Real local git repositories with crafted histories, for the miner and release tests."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Method:
    """The fields of a catalog method the linker reads."""

    slug: str
    name: str
    aliases: tuple[str, ...]
    ambiguous_aliases: tuple[str, ...] = ()
    arxiv_id: str | None = None
    change_detail: str = ""
    paper_title: str | None = None
    family: str = ""
    computation: str | None = None
    computation_context: str | None = None
    parent: str | None = None
    shipped_with: str | None = None
    change: str | None = None
    package_spellings: tuple[tuple[str, tuple[str, ...]], ...] = ()


METHODS = [
    Method("grpo", "GRPO", ("GRPO", "grpo", "GRPOTrainer", "group_norm"), ("group_norm",), "2402.03300"),
    Method(
        "dr-grpo",
        "Dr. GRPO",
        ("Dr. GRPO", "dr_grpo", "norm_adv_by_std_in_grpo"),
        (),
        "2503.20783",
        parent="grpo",
    ),
    Method("dapo", "DAPO", ("DAPO", "dapo", "epsilon_high", "loss_type=dapo"), (), "2503.14476"),
    Method("ipo", "IPO", ("IPO", "ipo"), ("IPO", "ipo"), "2310.12036"),
    Method("gpg", "GPG", ("GPG", "gpg"), ("GPG", "gpg"), "2504.02546"),
    Method("icepop", "IcePop", ("IcePop", "icepop", "token_mask"), ("token_mask",), "2510.18855"),
    Method("lite-ppo", "Lite PPO", ("scale_rewards=batch",), (), "2508.08221"),
    Method("prime", "PRIME", ("PRIME", "recipe/prime"), ("PRIME",), "2502.01456"),
    Method("kto", "KTO", ("KTO", "kto", "KTOTrainer"), (), "2402.01306"),
]


class Repo:
    """A work-tree repository whose commits get fixed, increasing dates."""

    def __init__(self, path: Path):
        self.path = path
        self.clock = 1_700_000_000
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.name", "Test Author")
        self.git("config", "user.email", "author@example.org")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str, input: bytes | None = None) -> str:
        stamp = f"{self.clock} +0200"
        env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        proc = subprocess.run(["git", *args], cwd=self.path, env=env, capture_output=True, input=input)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.decode())
        return proc.stdout.decode("utf-8", "replace").strip()

    def write(self, rel: str, content: str | bytes) -> None:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)

    def commit(self, message: str | bytes, files: dict[str, str | bytes] | None = None, **kw) -> str:
        self.clock += 86_400  # one day per commit
        for rel, content in (files or {}).items():
            self.write(rel, content)
        self.git("add", "-A")
        raw = message if isinstance(message, bytes) else message.encode()
        self.git("commit", "-q", "--allow-empty", "-F", "-", input=raw)
        return self.git("rev-parse", "HEAD")

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")


def crafted_history(path: Path) -> tuple[Repo, dict[str, str]]:
    """A framework history covering each rule and guard; returns the repo and named shas."""
    r = Repo(path)
    s: dict[str, str] = {}
    s["root"] = r.commit("Initial commit", {"README.md": "# fw\n", "fw/__init__.py": ""})
    s["docs_grpo"] = r.commit(
        "Docs: plan GRPO support (#3)",
        {"docs/grpo.md": "We will add GRPO (https://arxiv.org/abs/2402.03300v2) soon.\n"},
    )
    s["grpo"] = r.commit(
        "Add GRPO trainer (#5)",
        {
            "fw/grpo_trainer.py": "class GRPOTrainer:\n    loss_type: str = 'bnpo'\n",
            "tests/test_grpo.py": "x = 1\n",
        },
    )
    r.git("tag", "v0.1")
    s["binary"] = r.commit("Add logo", {"docs/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00binary\x00"})
    s["empty"] = r.commit("Empty commit marking a milestone")
    s["latin1"] = r.commit("Fix caf\xe9 encoding in logs".encode("latin-1"), {"fw/log.py": "x = 2\n"})
    s["dapo"] = r.commit(
        "Clip higher",
        {
            "fw/grpo_trainer.py": (
                "class GRPOTrainer:\n    loss_type: str = 'bnpo'\n    epsilon_high: float = 0.28\n"
            )
        },
    )
    (r.path / "fw/trainers").mkdir()
    r.git("mv", "fw/grpo_trainer.py", "fw/trainers/grpo_trainer.py")
    s["gspo_rename"] = r.commit("Move trainer to a package")
    s["dr"] = r.commit(
        "Support Dr. GRPO (#9)",
        {"fw/trainers/advantages.py": 'def advantages(kind):\n    if kind == "dr_grpo":\n        return 1\n'},
    )
    s["revert"] = r.commit(f'Revert "Support Dr. GRPO (#9)"\n\nThis reverts commit {s["dr"]}.\n')
    r.git("checkout", "-q", "-b", "side")
    s["side"] = r.commit("Experimental IPO", {"fw/side.py": 'LOSSES = ["ipo"]\n'})
    r.git("tag", "-a", "side-0.1", "-m", "side release")
    r.git("checkout", "-q", "main")
    s["gpg"] = r.commit(
        "Sign releases", {"docker/install.sh": "gpg --keyserver keys.example.org --recv KEY\n"}
    )
    s["vendored"] = r.commit("Vendor a helper", {"third_party/lib/kto.py": "class KTOTrainer:\n    pass\n"})
    r.git("checkout", "-q", "-b", "feature")
    s["feature"] = r.commit("IcePop masking", {"fw/trainers/mask.py": 'MODES = ("icepop",)\n'})
    r.git("checkout", "-q", "main")
    s["main_fix"] = r.commit("Tidy", {"fw/log.py": "x = 3\n"})
    r.clock += 86_400
    r.git("merge", "-q", "--no-ff", "feature", "-m", "Merge pull request #12 from someone/feature")
    s["merge"] = r.head()
    r.git("tag", "-a", "v0.2", "-m", "release 0.2")
    return r, s
