"""Accuracy of first implementations against hand-verified labels.

    python -m benchmarks.eval_implementations --mirrors DIR [--set dev|new|unseen|...|all] [--leave-one-out]
        [--workers 2] [--show-all]

DIR holds fetched framework repositories, found as DIR/<owner>+<name>/repo, DIR/<owner>+<name>.git,
DIR/<owner>+<name> or DIR/<name>. Each framework's full history is mined with the product's miner
and linker, which needs only the method catalog, so a framework that is not in the product's
framework catalog is mined by its repository path under the slug its labels use. The first
implementation of a method is the earliest non-excluded IMPLEMENTS commit (what the stored query
`paper-implementations` returns).

Label sets:
* `dev`: the development set (dev_implementations.jsonl, dev_negatives.jsonl in ../shared/data
  beside the repository): trl, OpenRLHF, NeMo-RL, the frameworks the catalog was written against.
* `new`: benchmarks/data/new_implementations.jsonl and new_negatives.jsonl, frameworks the catalog
  was not tuned against, verified with git alone (see benchmarks/data/README.md).
* `unseen`: benchmarks/data/unseen_implementations.jsonl and unseen_negatives.jsonl, frameworks
  labelled after the linker's rules were written, whose errors no rule was ever designed on.
* `fresh`: benchmarks/data/fresh_implementations.jsonl and fresh_negatives.jsonl, frameworks
  labelled after the last rule of the linker was written and scored before any rule changed.
* `blind`: benchmarks/data/blind_implementations.jsonl and blind_negatives.jsonl, frameworks of
  the product's catalog that had no labels, labelled with git alone and scored before any rule
  looked at them; also scored with the aliases only their own history holds dropped.
* `blind2`: benchmarks/data/blind2_implementations.jsonl and blind2_negatives.jsonl, the next three
  catalog frameworks (AReaL, slime, prime-rl), labelled the same way after every rule before it.
* `blind3`: benchmarks/data/blind3_implementations.jsonl and blind3_negatives.jsonl: verl, the
  last catalog framework with a history here and no labels, and two frameworks outside the catalog
  (torchtune, NeMo-Aligner), labelled the same way.
* `blind4`: benchmarks/data/blind4_implementations.jsonl and blind4_negatives.jsonl: three more
  frameworks outside the catalog (LMFlow, xtuner, align-anything), labelled the same way.
* `blind5`: benchmarks/data/blind5_implementations.jsonl and blind5_negatives.jsonl: three more
  frameworks outside the catalog (EasyR1, ChatLearn, torchforge), labelled the same way.
* `blind6`: benchmarks/data/blind6_implementations.jsonl and blind6_negatives.jsonl: three more
  frameworks outside the catalog (PipelineRL, RL2, cosmos-rl), labelled the same way.
* `blind7`: benchmarks/data/blind7_implementations.jsonl and blind7_negatives.jsonl: three more
  frameworks outside the catalog (HALOs, verifiers, tinker-cookbook), labelled the same way.
* `blind8`: benchmarks/data/blind8_implementations.jsonl and blind8_negatives.jsonl: three more
  frameworks outside the catalog (trlx, alignment-handbook, atropos), labelled the same way.
* `blind9`: benchmarks/data/blind9_implementations.jsonl and blind9_negatives.jsonl: four more
  frameworks outside the catalog (unsloth, siiRL, RAGEN, agent-lightning), labelled the same way.
* `blind10`: benchmarks/data/blind10_implementations.jsonl and blind10_negatives.jsonl: three more
  (torchrl, verl-tool, OpenManus-RL), labelled the same way.
* `blind11`: benchmarks/data/blind11_implementations.jsonl and blind11_negatives.jsonl: three
  projects that run another framework's trainers (understand-r1-zero, NeMo-Skills, open-r1).
* `blind12`: benchmarks/data/blind12_implementations.jsonl and blind12_negatives.jsonl: three
  research projects (Open-Reasoner-Zero, simpleRL-reason, Search-R1).
* `blind13`: benchmarks/data/blind13_implementations.jsonl and blind13_negatives.jsonl: five
  projects with training code of their own (minimind, nanochat, alpaca_farm, MOSS-RLHF,
  simple_GRPO).
* `blind14`: benchmarks/data/blind14_implementations.jsonl and blind14_negatives.jsonl: six
  reference implementations and small libraries (direct-preference-optimization,
  self-rewarding-lm-pytorch, RL4LMs, SimPO, nano-aha-moment, PaLM-rlhf-pytorch).
* `blind15`: benchmarks/data/blind15_implementations.jsonl and blind15_negatives.jsonl: four more
  (SPIN, Online-RLHF, ORPO, GRPO-Zero).
* `blind16`: benchmarks/data/blind16_implementations.jsonl and blind16_negatives.jsonl: a loss
  library and two projects built on a copy of another framework (Liger-Kernel, PRIME, TinyZero).
* `blind17`: benchmarks/data/blind17_implementations.jsonl and blind17_negatives.jsonl: two
  post-training libraries, a pretraining library that gained post-training, and two projects on a
  copy of verl (tunix, compose-rl, gpt-neox, Logic-RL, Minimal-RL).
* `blind18`: benchmarks/data/blind18_implementations.jsonl and blind18_negatives.jsonl: two
  vision-language GRPO projects, one the other's fork, and three research projects built on copies
  (R1-V, VLM-R1, TTRL, DeepScaleR, VL-RLHF).
* `blind19`: benchmarks/data/blind19_implementations.jsonl and blind19_negatives.jsonl: a
  post-training library on MLX, a large training system's chat application, and two projects
  (mlx-lm-lora, ColossalAI, SkyThought, Firefly).
* `blind20`: benchmarks/data/blind20_implementations.jsonl and blind20_negatives.jsonl: a method's
  reference code, a reward-model recipe collection, and three research projects on copies of verl
  (SPPO, RLHF-Reward-Modeling, ToRL, ReCall, Skywork-OR1).
* `blind21`: benchmarks/data/blind21_implementations.jsonl and blind21_negatives.jsonl: two
  methods' reference code, a fork of verl with its history, and a project with verl as a submodule
  (ReMax, WPO, Code-R1, General-Reasoner).
* `blind22`: benchmarks/data/blind22_implementations.jsonl and blind22_negatives.jsonl: four
  research projects built on other codebases, and one on a copy of verl (MCTS-DPO, VeriFree,
  alpha-DPO, TDPO, SimpleVLA-RL).
* `blind23`: benchmarks/data/blind23_implementations.jsonl and blind23_negatives.jsonl: a
  collection of research projects, a project that carries three other codebases, and two research
  codebases (LMOps, ReasonFlux, RAFT, ReST-MCTS).
* `blind24`: benchmarks/data/blind24_implementations.jsonl and blind24_negatives.jsonl: three
  projects on copies of verl or OpenRLHF, one carrying three codebases, a small library of its own
  trainers, and a project on a copy of TRL's trainer (Entropy-Mechanism-of-RL, MM-EUREKA,
  Short-RL, nanoRLHF, Self-rewarding-reasoning-LLM, X-R1).
* `blind25`: benchmarks/data/blind25_implementations.jsonl and blind25_negatives.jsonl: four
  research projects on copies of TRL's, verl's and OpenRLHF's trainers, and two paper releases
  without training code (Tina, open-rs, VL-Rethinker, DeepResearcher, sweet_rl, DAPO).
* `blind26`: benchmarks/data/blind26_implementations.jsonl and blind26_negatives.jsonl: five
  vision-language and search projects on copies of TRL's trainer, EasyR1, OpenRLHF and verl, and a
  project with verl as a submodule (Video-R1, GUI-R1, open-r1-multimodal, R1-Searcher, Vision-R1,
  DeepMath).
* `blind27`: benchmarks/data/blind27_implementations.jsonl and blind27_negatives.jsonl: projects
  on copies of EasyR1, verl, OpenRLHF and AReaL, and one on an edited copy of TRL's trainer
  (Seg-Zero, UI-R1, ASearcher, Pixel-Reasoner, LIMR, Laser).
* `blind28`: benchmarks/data/blind28_implementations.jsonl and blind28_negatives.jsonl: a fork
  of OpenRLHF with its whole history, projects on oat and on copies of TRL's trainer, a project
  carrying LLaMA-Factory and VLM-R1, and two model releases (MARTI, oat-zero,
  R1-Multimodal-Journey, R1-Onevision, MiniCPM-V, Skywork-R1V).
* `blind29`: benchmarks/data/blind29_implementations.jsonl and blind29_negatives.jsonl: two
  projects on copies of OpenRLHF, a critic trained on an edited copy of verl's trainer, a video
  project on its own GRPO trainer, a project training through submodules, and a paper release
  (R1-Reward, RAIF, critic-rl, TinyLLaVA-Video-R1, AceCoder, RLP).
* `blind30`: benchmarks/data/blind30_implementations.jsonl and blind30_negatives.jsonl: a fork of
  OpenRLHF with its whole history, an application project on TRL's trainers, a GRPO variant on an
  edited TRL trainer and a copy of verl, a project on an edited copy of verl, a collection of
  examples with its own RLHF pipeline, and two model releases (OpenRLHF-M, MedicalGPT, CPPO,
  POLARIS, DeepSpeedExamples, Eurus, RLHF-V).
* `blind31`: benchmarks/data/blind31_implementations.jsonl and blind31_negatives.jsonl: early RLHF
  projects on trlx, TRL and their own PPO (lm-human-preference-details, ChatGLM-Efficient-Tuning,
  sunzeyeah/RLHF, RRHF), projects on copies of verl and LLaMA-Factory's scripts (ReSearch,
  Light-R1), and a video project on its own GRPO trainers (VideoChat-R1).
* `blind32`: benchmarks/data/blind32_implementations.jsonl and blind32_negatives.jsonl: projects
  running TRL's, an edited DPO reference's and xtuner's trainers from their own scripts, two
  projects carrying LLaMA-Factory for their own SFT stages, and an evaluation suite that once
  trained reward models (notus, reward-bench, WebRL, STIC, beta-DPO, Virgo, POLAR).
* `blind33`: benchmarks/data/blind33_implementations.jsonl and blind33_negatives.jsonl: a classic
  RL library with a dialogue task, a project on a whole-root copy of verl, and two projects
  carrying verl beside their own launchers and package (openrl, Open-AgentRL, QwenLong-L1,
  Absolute-Zero-Reasoner).
* `blind34`: benchmarks/data/blind34_implementations.jsonl and blind34_negatives.jsonl: a fork
  keeping verl's whole history, two edited whole-root copies of verl, a project on verl's installed
  package, a puzzle collection with its own xtuner script, and a model release (SimpleTIR, RLPR,
  NFT, MiroRL, InternBootcamp, MMaDA).
* `all`: the thirty-eight.

Corrections: where reading the diffs showed a label's first commit to be late, the earlier landing
is added to that label's verified alternatives (benchmarks/data/label_corrections.jsonl, each
with its evidence and why; printed when applied). `--as-given` scores the labels without them.

Scores, per framework and overall:
* a labelled positive is correct when the found commit is the verified first commit or one of its
  verified alternatives (partial landings, re-lands); a wrong commit counts as a false pair and a
  miss; a confident negative that is found counts as a false pair.
* precision = correct / (correct + false), recall = correct / labelled positives.
* exact first commit = found commit is exactly the verified first commit, over the positives found.
* date error = days between the found and the verified commit dates, over the positives found
  (correct or not): median and 90th percentile (nearest rank).

Held out: in each blind set one or two frameworks were chosen before any label was made (the
lowest SHA-256 of the set's slugs, `HELD_OUT`); no rule is designed on them, so their error lines
are withheld (`--show-held-out` prints them). With `--set all` the scores are also pooled over the
labelled frameworks outside the development set: the held-out ones, and the others.

Leave-one-framework-out (`--leave-one-out`, on the development frameworks): for each development
framework F, the catalog aliases that exist only because of F are dropped and F is mined again
with what is left. An alias (an entry of a method's `aliases`) exists only because of F when,
across the full histories of all the development frameworks (added lines of every file the miner
reads, and commit messages), it occurs in F's and in no other's. Kept whatever the histories say:
an alias that is the method's own name or slug up to case and punctuation (`SimPO`, `simpo`,
`dr_grpo`), which comes from the paper, not from a framework, and an alias that occurs nowhere,
since nothing shows which framework it was written for. Occurrence is exact
text: a plain identifier as a whole token (letters, digits, underscore), a `key=value` alias as
both tokens on one line, any other alias as a substring bounded by non-identifier characters.
Which aliases occur where is cached per repository head under .cache/eval-implementations/.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import hashlib
import json
import math
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from uptake.loaders.git import MinedCommit, copied_trees, mine_commits, resolve_repository

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
NEW_DATA = REPO / "benchmarks" / "data"
CACHE = REPO / ".cache" / "eval-implementations"
FRAMEWORK_SLUGS = {"nemo_rl": "nemo-rl"}
CORRECTIONS = NEW_DATA / "label_corrections.jsonl"
LABEL_FILES = {"dev": ("dev_implementations.jsonl", "dev_negatives.jsonl"),
               "new": ("new_implementations.jsonl", "new_negatives.jsonl"),
               "unseen": ("unseen_implementations.jsonl", "unseen_negatives.jsonl"),
               "fresh": ("fresh_implementations.jsonl", "fresh_negatives.jsonl"),
               "blind": ("blind_implementations.jsonl", "blind_negatives.jsonl"),
               "blind2": ("blind2_implementations.jsonl", "blind2_negatives.jsonl"),
               "blind3": ("blind3_implementations.jsonl", "blind3_negatives.jsonl"),
               "blind4": ("blind4_implementations.jsonl", "blind4_negatives.jsonl"),
               "blind5": ("blind5_implementations.jsonl", "blind5_negatives.jsonl"),
               "blind6": ("blind6_implementations.jsonl", "blind6_negatives.jsonl"),
               "blind7": ("blind7_implementations.jsonl", "blind7_negatives.jsonl"),
               "blind8": ("blind8_implementations.jsonl", "blind8_negatives.jsonl"),
               "blind9": ("blind9_implementations.jsonl", "blind9_negatives.jsonl"),
               "blind10": ("blind10_implementations.jsonl", "blind10_negatives.jsonl"),
               "blind11": ("blind11_implementations.jsonl", "blind11_negatives.jsonl"),
               "blind12": ("blind12_implementations.jsonl", "blind12_negatives.jsonl"),
               "blind13": ("blind13_implementations.jsonl", "blind13_negatives.jsonl"),
               "blind14": ("blind14_implementations.jsonl", "blind14_negatives.jsonl"),
               "blind15": ("blind15_implementations.jsonl", "blind15_negatives.jsonl"),
               "blind16": ("blind16_implementations.jsonl", "blind16_negatives.jsonl"),
               "blind17": ("blind17_implementations.jsonl", "blind17_negatives.jsonl"),
               "blind18": ("blind18_implementations.jsonl", "blind18_negatives.jsonl"),
               "blind19": ("blind19_implementations.jsonl", "blind19_negatives.jsonl"),
               "blind20": ("blind20_implementations.jsonl", "blind20_negatives.jsonl"),
               "blind21": ("blind21_implementations.jsonl", "blind21_negatives.jsonl"),
               "blind22": ("blind22_implementations.jsonl", "blind22_negatives.jsonl"),
               "blind23": ("blind23_implementations.jsonl", "blind23_negatives.jsonl"),
               "blind24": ("blind24_implementations.jsonl", "blind24_negatives.jsonl"),
               "blind25": ("blind25_implementations.jsonl", "blind25_negatives.jsonl"),
               "blind26": ("blind26_implementations.jsonl", "blind26_negatives.jsonl"),
               "blind27": ("blind27_implementations.jsonl", "blind27_negatives.jsonl"),
               "blind28": ("blind28_implementations.jsonl", "blind28_negatives.jsonl"),
               "blind29": ("blind29_implementations.jsonl", "blind29_negatives.jsonl"),
               "blind30": ("blind30_implementations.jsonl", "blind30_negatives.jsonl"),
               "blind31": ("blind31_implementations.jsonl", "blind31_negatives.jsonl"),
               "blind32": ("blind32_implementations.jsonl", "blind32_negatives.jsonl"),
               "blind33": ("blind33_implementations.jsonl", "blind33_negatives.jsonl"),
               "blind34": ("blind34_implementations.jsonl", "blind34_negatives.jsonl")}  # fmt: skip


def catalog_methods() -> list:
    """The product catalog's methods; while the catalog is incomplete, its raw method rows."""
    try:
        from uptake.loaders.catalog import read_catalog

        return list(read_catalog().methods.values())
    except Exception as exc:  # the catalog module is still being written
        print(f"(catalog not loadable: {exc}; using loaders/data/methods.jsonl rows)", file=sys.stderr)
        rows = [json.loads(line) for line in (REPO / "loaders" / "data" / "methods.jsonl").open()]
        return [
            SimpleNamespace(
                slug=r["slug"],
                name=r["name"],
                aliases=tuple(r["aliases"]),
                ambiguous_aliases=tuple(r.get("ambiguous_aliases") or ()),
                arxiv_id=r.get("arxiv_id"),
            )
            for r in rows
        ]


def vendored_packages(framework: str) -> tuple[str, ...]:
    """Other catalog frameworks' package names, as the product passes them to the miner."""
    try:
        from uptake.loaders.catalog import read_catalog

        return read_catalog().vendored_packages(FRAMEWORK_SLUGS.get(framework, framework))
    except Exception:  # the catalog module is still being written
        return ()


def framework_name(framework: str, repo: str) -> str:
    """The name the product mines a framework under: its catalog slug, or for a framework a user
    adds, the slug `uptake framework add` gives it by default (the repository's name)."""
    from uptake.loaders.catalog import read_catalog
    from uptake.loaders.user_frameworks import default_slug

    slug = FRAMEWORK_SLUGS.get(framework, framework)
    return slug if slug in read_catalog().frameworks else default_slug(repo)


def without_aliases(methods: list, dropped: set[str], packages: set[str] = frozenset()) -> list:
    """The catalog with `dropped` aliases removed from every method (a method keeps at least its
    name, which the linker matches anyway), and without what `packages` spell."""
    out = []
    for m in methods:
        aliases = tuple(a for a in m.aliases if a not in dropped) or (m.name,)
        ambiguous = tuple(a for a in m.ambiguous_aliases if a in aliases)
        changed = {"aliases": aliases, "ambiguous_aliases": ambiguous}
        if hasattr(m, "package_spellings"):  # a catalog that has them
            changed["package_spellings"] = tuple(
                (p, kept) for p, spelled in m.package_spellings
                if p not in packages and (kept := tuple(a for a in spelled if a in aliases))
            )  # fmt: skip
        if dataclasses.is_dataclass(m):
            out.append(dataclasses.replace(m, **changed))
        else:
            out.append(SimpleNamespace(**{**vars(m), **changed}))
    return out


def own_packages(framework: str, repo: str) -> set[str]:
    """The package names a framework's own code goes by, as the catalog derives them."""
    return {n.lower().replace("-", "_") for n in (framework, repo.rpartition("/")[2])}


def find_mirror(mirrors: Path, repo: str) -> Path:
    owner, name = repo.split("/")
    for candidate in (
        mirrors / f"{owner}+{name}" / "repo",
        mirrors / f"{owner}+{name}.git",
        mirrors / f"{owner}+{name}",
        mirrors / name,
    ):
        if candidate.exists():
            return candidate
    raise SystemExit(f"no repository for {repo} under {mirrors}")


def slug(method: str) -> str:
    return method.replace("_", "-")


def git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, text=True).stdout


def first_implementations(commits: list[MinedCommit]) -> dict[str, tuple[MinedCommit, object]]:
    """Earliest IMPLEMENTS commit per method, skipping reverted commits (as the stored query does)."""
    reverted = {c.reverts for c in commits if c.reverts}
    first: dict[str, tuple[MinedCommit, object]] = {}
    for c in commits:
        if any(c.sha.startswith(r) for r in reverted):
            continue
        for link in c.links:
            if link.rel != "IMPLEMENTS" or link.vendored:  # a copied tree is not the framework's own
                continue
            best = first.get(link.key)
            if best is None or (c.commit_ts, c.sha) < (best[0].commit_ts, best[0].sha):
                first[link.key] = (c, link)
    return first


def mine_all(
    path: Path, methods: list, workers: int, vendored: tuple[str, ...] = (), framework: str = ""
) -> list[MinedCommit]:
    git_dir = resolve_repository(path)
    shas = git(git_dir, "rev-list", "--reverse", "HEAD").split()
    vendored, configs = copied_trees(git_dir, vendored)  # as the product's miners decide them
    out: list[MinedCommit] = []
    for _, mined in mine_commits(
        [(str(git_dir), shas)], methods, workers, vendored=vendored, framework=framework, configs=configs
    ):
        out.extend(mined)
    return out


# --- which aliases occur in which history (leave-one-out) ----------------------------------------

_TOKEN = re.compile(r"[A-Za-z0-9_]+")
_PLAIN = re.compile(r"^[A-Za-z0-9_]+$")


class AliasMatcher:
    """Exact-text occurrence of catalog aliases in a line (see the module docstring)."""

    def __init__(self, aliases: set[str]):
        self.plain = {a for a in aliases if _PLAIN.match(a)}
        self.pairs = {a: tuple(a.split("=", 1)) for a in aliases if "=" in a}
        others = sorted(aliases - self.plain - set(self.pairs), key=len, reverse=True)
        self.other = (
            re.compile("|".join(rf"(?<![A-Za-z0-9_])({re.escape(a)})(?![A-Za-z0-9_])" for a in others))
            if others
            else None
        )

    def found(self, line: str) -> set[str]:
        tokens = set(_TOKEN.findall(line))
        hits = self.plain & tokens
        hits |= {a for a, (k, v) in self.pairs.items() if k in tokens and (v in tokens or v in line)}
        if self.other:
            hits |= {m.group(m.lastindex) for m in self.other.finditer(line) if m.lastindex}
        return hits


def _missing_paths(git_dir: Path) -> list[str]:
    """Paths whose contents this copy lacks (a partial clone): `git log -p` would stop at them."""
    missing = {
        line[1:] for line in git(git_dir, "rev-list", "--objects", "--missing=print", "HEAD").split()
        if line.startswith("?")
    }  # fmt: skip
    if not missing:
        return []
    raw = git(git_dir, "log", "--raw", "--no-abbrev", "--no-renames", "--format=", "HEAD")
    return sorted({f.split("\t", 1)[1] for f in raw.splitlines() if f[:1] == ":" and f.split()[3] in missing})


def aliases_in_history(git_dir: Path, aliases: set[str]) -> set[str]:
    """The aliases that occur in a history's added lines or commit messages (cached per head)."""
    head = git(git_dir, "rev-parse", "HEAD").strip()
    digest = hashlib.sha1("\n".join(sorted(aliases)).encode()).hexdigest()[:12]
    cached = CACHE / f"{head}-{digest}.json"
    if cached.exists():
        return set(json.loads(cached.read_text()))
    matcher = AliasMatcher(aliases)
    excludes = [f":(exclude,literal){p}" for p in _missing_paths(git_dir)]
    cmd = ["git", "--git-dir", str(git_dir), "log", "-p", "-U0", "--no-color", "--no-renames",
           "--no-ext-diff", "--no-textconv", "--format=%x1e%B", "HEAD", "--", ".", *excludes]  # fmt: skip
    found: set[str] = set()
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, errors="replace") as proc:
        in_message = False
        for line in proc.stdout:
            if line.startswith("\x1e"):
                in_message, line = True, line[1:]
            elif line.startswith("diff --git"):
                in_message = False
            if in_message or (line[:1] == "+" and not line.startswith("+++")):
                found |= matcher.found(line)
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(sorted(found)))
    return found


def _spelling(text: str) -> str:
    return re.sub(r"[^a-z0-9+]", "", text.lower())


def framework_aliases(methods: list) -> set[str]:
    """The aliases a framework could have brought: all but each method's own name or slug respelled."""
    return {
        a for m in methods for a in m.aliases if _spelling(a) not in {_spelling(m.name), _spelling(m.slug)}
    }


def framework_only_aliases(occurrences: dict[str, set[str]], framework: str) -> set[str]:
    """Aliases that occur in `framework`'s history and in no other development framework's."""
    others = set().union(*(found for fw, found in occurrences.items() if fw != framework))
    return occurrences[framework] - others


# Frameworks held out of every rule's design, chosen per blind set before it was labelled
# (benchmarks/data/README.md): their error lines are withheld.
HELD_OUT = frozenset(
    {
        "search-r1", "open-r1", "openmanus-rl", "agent-lightning", "atropos", "tinker-cookbook", "rl2",
        "chatlearn", "align-anything", "nemo-aligner", "minimind", "alpaca-farm", "nano-aha-moment",
        "direct-preference-optimization", "grpo-zero", "liger-kernel",
        "tunix", "r1-v", "mlx-lm-lora", "skywork-or1",
        "general-reasoner", "mcts-dpo", "raft", "entropy-mechanism-of-rl", "open-rs", "deepmath",
        "seg-zero", "skywork-r1v", "critic-rl", "eurus", "rlhf-v",
        "lm-human-preference-details", "chatglm-efficient-tuning", "notus", "reward-bench",
        "qwenlong-l1", "absolute-zero-reasoner", "mmada", "mirorl",
    }
)  # fmt: skip

# --- scoring ---------------------------------------------------------------------------------------


def days(a: str, b: str) -> int:
    return abs((dt.date.fromisoformat(a[:10]) - dt.date.fromisoformat(b[:10])).days)


@dataclasses.dataclass
class Score:
    correct: int = 0
    false: int = 0
    missed: int = 0
    exact: int = 0
    found: int = 0
    errors: list[int] = dataclasses.field(default_factory=list)

    def add(self, other: Score) -> None:
        for f in ("correct", "false", "missed", "exact", "found"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.errors += other.errors

    def line(self, name: str) -> str:
        p = self.correct / (self.correct + self.false) if self.correct + self.false else 1.0
        r = self.correct / (self.correct + self.missed) if self.correct + self.missed else 1.0
        ex = self.exact / self.found if self.found else float("nan")
        med = statistics.median(self.errors) if self.errors else float("nan")
        p90 = sorted(self.errors)[math.ceil(0.9 * len(self.errors)) - 1] if self.errors else float("nan")
        return (
            f"{name:12} {self.correct:3} correct {self.false:3} false {self.missed:3} missed"
            f"  precision {p:.3f}  recall {r:.3f}  exact first commit {ex:.3f}"
            f"  date error median {med:g} d, p90 {p90:g} d"
        )


def score_framework(fw: str, first: dict, positives: list, negatives: list, known: set, show_all: bool):
    s, lines = Score(), []
    for row in positives:
        m = slug(row["method"])
        ok_shas = [row["first_commit_sha"]] + [
            a if isinstance(a, str) else a.get("sha", "") for a in row.get("alternative_commits") or []
        ]
        found = first.get(m)
        if m not in known or found is None:
            s.missed += 1
            why = (
                "not in the catalog"
                if m not in known
                else f"no IMPLEMENTS (truth {row['first_commit_sha'][:10]})"
            )
            lines.append(f"MISS  {fw:9} {m:22} {why}")
            continue
        c, link = found
        err = days(c.commit_date, row["commit_date"])
        s.found += 1
        s.errors.append(err)
        s.exact += c.sha == row["first_commit_sha"]
        if any(sha and c.sha.startswith(sha[:10]) for sha in ok_shas):
            s.correct += 1
            if show_all:
                lines.append(f"ok    {fw:9} {m:22} {c.sha[:10]} {link.rule} {link.location}")
        else:
            s.false += 1
            s.missed += 1
            lines.append(
                f"WRONG {fw:9} {m:22} found {c.sha[:10]} {c.commit_date[:10]} ({link.rule} "
                f"{link.location} {link.identifier!r}); truth {row['first_commit_sha'][:10]} "
                f"{row['commit_date'][:10]}; date error {err} d"
            )
    for row in negatives:
        m = slug(row["method"])
        if m in first:
            c, link = first[m]
            s.false += 1
            lines.append(
                f"FALSE {fw:9} {m:22} found {c.sha[:10]} ({link.rule} {link.location} {link.identifier!r})"
            )
    return s, lines


def read_labels(data: Path, which: str, corrected: bool = True) -> tuple[list, list] | None:
    folder = data if which == "dev" else NEW_DATA
    pos_name, neg_name = LABEL_FILES[which]
    if not (folder / pos_name).exists():
        return None
    read = lambda name: [json.loads(line) for line in (folder / name).open() if line.strip()]  # noqa: E731
    positives = read(pos_name)
    if corrected:
        positives = [corrected_row(row, which) for row in positives]
    return positives, read(neg_name) if (folder / neg_name).exists() else []


def corrected_row(row: dict, which: str) -> dict:
    """A label with the earlier landings our own reading of the diffs found added as verified
    alternatives (label_corrections.jsonl: each with the diff's evidence and why)."""
    for fix in _corrections():
        if (fix["set"], fix["framework"], fix["method"]) == (which, row["framework"], row["method"]):
            print(f"(label corrected: {which} {row['framework']} {row['method']}: {fix['why']})",
                  file=sys.stderr)  # fmt: skip
            alternatives = [*row.get("alternative_commits", []), *fix["alternative_commits"]]
            row = {**row, "alternative_commits": alternatives}
    return row


def _corrections() -> list[dict]:
    if not CORRECTIONS.exists():
        return []
    return [json.loads(line) for line in CORRECTIONS.open() if line.strip()]


def evaluate(title: str, frameworks: dict, methods_for, args, known: set) -> dict[str, Score]:
    """Mine each framework with `methods_for(fw)`, score its labels, print per framework and overall
    (a held-out framework's error lines withheld); return the score of each."""
    total, lines, summary, scores = Score(), [], [], {}
    withheld = 0
    for fw, info in frameworks.items():
        t0 = time.perf_counter()
        vendored = vendored_packages(fw)
        commits = mine_all(
            find_mirror(args.mirrors, info["repo"]),
            methods_for(fw),
            args.workers,
            vendored,
            framework_name(fw, info["repo"]),
        )
        print(f"{fw}: {len(commits)} commits mined in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        s, fw_lines = score_framework(
            fw, first_implementations(commits), info["pos"], info["neg"], known, args.show_all
        )
        total.add(s)
        scores[fw] = s
        if fw in HELD_OUT and not args.show_held_out:
            withheld += sum(not line.startswith("ok") for line in fw_lines)
            fw_lines = [line for line in fw_lines if line.startswith("ok")]
        lines += fw_lines
        summary.append(s.line(fw) + (" (held out)" if fw in HELD_OUT else ""))
    print(f"== {title}")
    print("\n".join(sorted(lines)))
    if withheld:
        print(f"({withheld} error lines of held-out frameworks withheld)")
    print("\n" + "\n".join(summary + [total.line("overall")]) + "\n")
    return scores


def print_pooled(scores: dict[str, Score]) -> None:
    """The labelled frameworks outside the development set, pooled: held out, and the others."""
    print("== pooled, frameworks outside the development set")
    for name, chosen in (("held out", True), ("others", False)):
        pooled = Score()
        for fw, s in scores.items():
            if (fw in HELD_OUT) == chosen:
                pooled.add(s)
        print(pooled.line(name))
    print()


def by_framework(positives: list, negatives: list) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for row in positives + negatives:
        out.setdefault(row["framework"], {"repo": row["repo"], "pos": [], "neg": []})
    for row in positives:
        out[row["framework"]]["pos"].append(row)
    for row in negatives:
        out[row["framework"]]["neg"].append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=SHARED, help="folder of the development set")
    ap.add_argument("--set", choices=(*LABEL_FILES, "all"), default="dev", dest="label_set")
    ap.add_argument("--leave-one-out", action="store_true", help="also score each development framework "
                    "with the aliases that exist only because of it dropped")  # fmt: skip
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--show-all", action="store_true", help="print every pair, not only the wrong ones")
    ap.add_argument("--as-given", action="store_true", help="score without label_corrections.jsonl")
    ap.add_argument("--show-held-out", action="store_true", help="print held-out frameworks' errors too")
    args = ap.parse_args(argv)
    methods = catalog_methods()
    known = {m.slug for m in methods}
    sets = tuple(LABEL_FILES) if args.label_set == "all" else (args.label_set,)
    dev = read_labels(args.data, "dev", not args.as_given)
    outside: dict[str, Score] = {}  # frameworks outside the development set, as labelled
    for which in sets:
        labels = dev if which == "dev" else read_labels(args.data, which, not args.as_given)
        if labels is None:
            print(f"skipped: no {which} label set")
            continue
        frameworks = by_framework(*labels)
        scores = evaluate(f"{which} set", frameworks, lambda fw: methods, args, known)
        if which != "dev":
            outside.update(scores)
        if which in _OWN_ALIASES_DROPPED and dev is not None:
            # Catalog frameworks: the catalog may hold their own spellings, so they are also
            # scored as if it had never been written against them.
            without = aliases_dropped(args, methods, by_framework(*dev), frameworks)
            evaluate(f"{which} set, aliases only in its own history dropped", frameworks, without.__getitem__,
                     args, known)  # fmt: skip
    if len(sets) > 1:
        print_pooled(outside)
    if args.leave_one_out:
        if dev is None:
            print(f"skipped leave-one-out: no development set at {args.data}")
            return 0
        frameworks = by_framework(*dev)
        without = aliases_dropped(args, methods, frameworks, frameworks)
        evaluate("leave-one-framework-out (dev)", frameworks, without.__getitem__, args, known)
    return 0


# Label sets labelled blind, scored both ways.
_OWN_ALIASES_DROPPED = tuple(name for name in LABEL_FILES if name.startswith("blind"))


def aliases_dropped(args, methods: list, dev: dict, scored: dict) -> dict[str, list]:
    """Per framework in `scored`, the catalog without the aliases that occur in its history and in
    no other development framework's (printed)."""
    aliases = framework_aliases(methods)
    occurrences = {
        fw: aliases_in_history(resolve_repository(find_mirror(args.mirrors, info["repo"])), aliases)
        for fw, info in {**dev, **scored}.items()
    }
    without = {}
    for fw in scored:
        others = {f: occurrences[f] for f in dev if f != fw}
        gone = framework_only_aliases({**others, fw: occurrences[fw]}, fw)
        print(f"{fw}: {len(gone)} aliases only in its history, dropped: {', '.join(sorted(gone))}")
        # What the catalog says the framework's own package spells exists only because of it.
        without[fw] = without_aliases(methods, gone, own_packages(fw, scored[fw]["repo"]))
    return without


if __name__ == "__main__":
    sys.exit(main())
