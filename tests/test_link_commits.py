"""IMPLEMENTS versus MENTIONS, per rule and per guard, on small crafted diffs."""

from __future__ import annotations

import re

import pytest
from git_history import METHODS, Method
from uptake.loaders.catalog import read_catalog
from uptake.loaders.link.commits import (
    IMPLEMENTS,
    MENTIONS,
    SPELLS,
    CommitLinker,
    FileDiff,
    _unlinked,
    path_category,
    reverted_sha,
)
from uptake.loaders.link.python_code import is_stub

LINKER = CommitLinker(METHODS)


def added(path: str, *lines: str, status: str = "M", start: int = 10) -> FileDiff:
    text = f"@@ -0,0 +{start},{len(lines)} @@\n" + "\n".join("+" + line for line in lines)
    return FileDiff(path, status, None, len(lines), 0, False, text)


def links(message: str, *files: FileDiff) -> dict[tuple[str, str], object]:
    return {(lk.label, lk.key): lk for lk in LINKER.link(message, list(files)).links}


@pytest.mark.parametrize(
    ("diff", "method", "rule"),
    [
        (added("fw/grpo.py", "class GRPOTrainer(Base):"), "grpo", "class-def"),
        (
            added(
                "fw/trainers/grpo_trainer.py",
                "@register_trainer",
                "def train(cfg):",
                "    return run(cfg)",
                status="A",
            ),
            "grpo",
            "new-file",
        ),
        (added("fw/config.py", "    epsilon_high: float = 0.28"), "dapo", "option-name"),
        (added("fw/loss.py", '    if self.loss_type == "ipo":'), "ipo", "option-value"),
        (added("fw/cli.py", '    parser.add_argument("--ipo", action="store_true")'), "ipo", "option-flag"),
        (added("fw/config/ppo.yaml", "  adv_estimator: grpo"), "grpo", "config-value"),
        (added("fw/loss.py", '    if self.loss_type == "dapo":'), "dapo", "setting"),
        (added("fw/run.py", '    args = ["fw.train", "algorithm.loss_type=dapo"]'), "dapo", "setting"),
        (
            added("fw/cli.py", '    parser.add_argument("--actor.loss_type", default="dapo")'),
            "dapo",
            "setting",
        ),
        (
            added("fw/cli.py", '    parser.add_argument("--loss_type", type=str, default="dapo")'),
            "dapo",
            "setting",
        ),
        (added("fw/grpo.py", '        if self.scale_rewards in ["batch", "none"]:'), "lite-ppo", "setting"),
        (added("fw/config.py", "class LossConfig:", "    ipo: bool = False"), "ipo", "definition"),
        (added("recipe/prime/main.py", "x = 1", status="A"), "prime", "new-file"),
        (added("fw/algorithms/prime.py", 'if __name__ == "__main__":', status="A"), "prime", "new-file"),
    ],
)
def test_implementation_rules(diff, method, rule):
    # The message names IPO and PRIME: their catalog aliases are ambiguous and need that second signal.
    link = links("Support the IPO loss and PRIME", diff)[("Method", method)]
    assert (link.rel, link.rule.split(";")[0]) == (IMPLEMENTS, rule)
    assert link.location.startswith(diff.path + ":")


def test_a_method_named_parameter_implements_only_where_the_change_passes_or_exposes_it():
    """A loss's `ipo` switch in a function's signature runs nothing until something sets it: a copy
    that kept the loss but no command setting the switch only mentions IPO."""
    signature = added("fw/loss.py", "    def __init__(self, beta: float, ipo: bool = False) -> None:")
    spread = added("fw/loss.py", "    def __init__(", "        self,", "        ipo: bool = False,", "    ):")
    flag = added("fw/cli.py", '    parser.add_argument("--ipo", action="store_true")')
    call = added("fw/trainer.py", "        self.loss_fn = DPOLoss(beta, ipo=args.ipo)")
    for diffs, rel in (
        ([signature], MENTIONS),
        ([spread], MENTIONS),
        ([signature, flag], IMPLEMENTS),
        ([signature, call], IMPLEMENTS),
        ([added("fw/config.py", "class LossConfig:", "    ipo: bool = False")], IMPLEMENTS),  # a field
    ):
        link = links("Support the IPO loss", *diffs)[("Method", "ipo")]
        assert link.rel == rel, diffs
        assert (rel == MENTIONS) == link.rule.endswith("a parameter nothing in the change passes or exposes")


def test_evidence_points_at_the_added_line():
    diff = FileDiff(
        "fw/config.py", "M", None, 2, 1, False,
        "@@ -3 +3,2 @@\n-old = 1\n+new = 1\n+epsilon_high = 0.2\n@@ -40,0 +41 @@\n+x = 1",
    )  # fmt: skip
    link = links("", diff)[("Method", "dapo")]
    assert (link.location, link.identifier) == ("fw/config.py:4", "epsilon_high")


@pytest.mark.parametrize(
    ("diff", "method", "rule"),
    [
        (added("docs/grpo.md", "Use `GRPOTrainer` for GRPO."), "grpo", "doc-mention"),
        (added("README.md", "We support DAPO via epsilon_high."), "dapo", "doc-mention"),
        (
            added("tests/test_loss.py", '    cfg = Config(loss_type="dapo", epsilon_high=0.3)'),
            "dapo",
            "test-mention",
        ),
        (added("examples/train_grpo.py", "trainer = GRPOTrainer(model)"), "grpo", "example-mention"),
        (added("fw/loss.py", "    # like epsilon_high in DAPO"), "dapo", "code-comment"),
        (added("fw/loss.py", 'x = 1  # see https://example.org/grpo_trainer "grpo"'), "grpo", "code-comment"),
    ],
)
def test_mentions_never_implement(diff, method, rule):
    link = links("Change", diff)[("Method", method)]
    assert (link.rel, link.rule) == (MENTIONS, rule)


def test_guards_against_false_matches():
    found = links(
        "Sign the release",
        added("docker/install.sh", "RUN gpg --keyserver keys.example.org --recv-keys ABC"),  # GnuPG
        added("third_party/lib/kto_trainer.py", "class KTOTrainer:", status="A"),  # vendored
        added(
            "fw/data.py",
            '    mask = batch["token_mask"]',
            '    if "token_mask" in batch:',
            '    {"token_mask": m}',
        ),
        added("fw/names.py", "use_dr_grpo_like = True", "grpo_helper = 1"),  # substrings of identifiers
        added("fw/algo.py", "    ipo = compute()"),  # an ambiguous word as a plain variable
        added("fw/prime_metrics.py", "x = 1", status="A"),  # an ambiguous word in a new file's name
        added("fw/masks.py", "    token_mask: Tensor = None"),  # an ambiguous identifier defined
    )
    implemented = {key for (label, key), lk in found.items() if lk.rel == IMPLEMENTS}
    assert implemented == set()
    assert ("Method", "kto") not in found


def test_a_reached_definition_carrying_the_name_the_message_gives_implements():
    """`def grpo_loss` that the trainer imports, in a change whose message names GRPO."""
    loss = added("fw/loss.py", "def grpo_loss(logprobs, advantages):", "    return -(logprobs * advantages)")
    trainer = added("fw/train.py", "from fw.loss import grpo_loss", "loss = grpo_loss(lp, adv)")
    found = links("Add grpo loss", loss, trainer)[("Method", "grpo")]
    assert (found.rel, found.rule, found.identifier) == (IMPLEMENTS, "message-and-code", "grpo_loss")
    assert links("Add grpo loss", loss)[("Method", "grpo")].rel == MENTIONS  # nothing calls it
    assert ("Method", "grpo") not in links("Add a loss", loss, trainer)  # nothing names the method
    # A name that holds another method's (`pf_ppo` holds `ppo`) is that method's.
    ppo, pf_ppo = Method("ppo", "PPO", ("PPO", "ppo")), Method("pf-ppo", "PF-PPO", ("PF-PPO", "pf_ppo"))
    linker = CommitLinker([ppo, pf_ppo])
    reweight = added("fw/core.py", "def compute_pf_ppo_reweight_data(batch):", "    return batch")
    caller = added("fw/train.py", "batch = compute_pf_ppo_reweight_data(batch)")
    found = {lk.key: lk for lk in linker.link("Filter the PPO batch", [reweight, caller]).links}
    assert found["ppo"].rel == MENTIONS


def test_message_alone_mentions_and_message_with_code_implements():
    only = links("Add KTO (#12)", added("docs/kto.md", "Soon."))
    assert only[("Method", "kto")].rel == MENTIONS and only[("Method", "kto")].rule == "commit-message"
    both = links("Add KTO loss (#12)", added("fw/loss.py", "    if kto:", "        return kto_loss(x)"))
    assert (both[("Method", "kto")].rel, both[("Method", "kto")].rule) == (IMPLEMENTS, "message-and-code")


def test_reverts_never_implement_and_name_their_target():
    message = 'Revert "Add Dr. GRPO (#9)"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.'
    assert reverted_sha(message) == "0123456789abcdef0123456789abcdef01234567"
    result = LINKER.link(message, [added("fw/adv.py", 'if kind == "dr_grpo":')])
    assert result.reverts and all(lk.rel == MENTIONS for lk in result.links)
    # A squash merge whose body holds a revert made inside the pull request is not a revert.
    assert reverted_sha("Add GSPO (#5)\n\n* wip\n\nThis reverts commit 0123456.") is None
    assert reverted_sha('Revert "Revert "Add GSPO""') is None  # a re-land


def test_papers_cited_in_messages_and_added_lines():
    found = links(
        "Implements https://arxiv.org/abs/2503.14476v2",
        added("docs/papers.md", "[Dr. GRPO](https://huggingface.co/papers/2503.20783)"),
        FileDiff("docs/old.md", "M", None, 0, 1, False, "@@ -1 +0,0 @@\n-https://arxiv.org/abs/2402.03300"),
    )
    assert found[("Paper", "2503.14476")].location == "message"
    assert found[("Paper", "2503.20783")].location == "docs/papers.md:10"
    assert ("Paper", "2402.03300") not in found  # a removed line cites nothing


def test_binary_and_empty_diffs_link_nothing():
    binary = FileDiff("fw/grpo_trainer.bin", "A", None, 0, 0, True, "")
    assert LINKER.link("", [binary]).links == []
    assert LINKER.link("", []).links == []


@pytest.mark.parametrize(
    ("path", "category"),
    [
        ("trl/trainer/grpo_trainer.py", "code"),
        ("tests/test_grpo.py", "test"),
        ("trl/test_utils.py", "test"),
        ("docs/source/grpo.md", "doc"),
        ("README.md", "doc"),
        ("examples/scripts/grpo.py", "example"),
        ("scripts/launch_online_grpo.sh", "example"),
        ("third_party/x/grpo.py", "other"),
        ("verl/trainer/config/ppo_trainer.yaml", "code"),
        ("assets/logo.png", "other"),
        (".github/workflows/e2e_dapo.yml", "other"),
        ("pyproject.toml", "other"),
        # A JSON file among data, results or logs is a record named after what it holds.
        ("results/dpo.json", "other"),
        ("train/data/kto_en_demo.json", "other"),
        ("configs/dpo.json", "code"),
        # Evaluation scores a model: its graders and CLIs train nothing.
        ("eval/math_dapo.py", "eval"),
        ("fw/cli/eval_ray.py", "eval"),
        ("fw/trainer/main_eval.py", "eval"),
        ("fw/evaluator.py", "eval"),
        ("fw/trainer/evaluation/grpo.py", "eval"),
        ("fw/trainer/retrieval.py", "code"),
    ],
)
def test_path_categories(path, category):
    assert path_category(path) == category


@pytest.mark.parametrize(
    ("diff", "rule"),
    [
        (added("fw/loss.py", '    """Losses: sigmoid, dapo and epsilon_high."""'), "docstring"),
        (added("fw/loss.py", '    """Losses.', "", "    TODO: DAPO with epsilon_high", '    """'), "todo"),
        (added("fw/loss.py", "    raise NotImplementedError  # TODO epsilon_high"), "todo"),
        (added("fw/loss.py", "    epsilon_high = None  # TODO: wire it"), "option-name"),
        (added("fw/loss.py", "    x = 1", "    # FIXME: dapo epsilon_high"), "todo"),
        (added("fw/loss.py", "    x = 1  # dapo uses epsilon_high"), "code-comment"),
        (added("fw/loss.py", '    adv: Literal["grpo"] = "grpo"  # can also add dapo here'), "todo"),
        (added("fw/loss.py", '    logger.info("falling back from dapo")'), "string-literal"),
        (added("fw/run.py", '    cmd = ["python", "-m", "fw.train", "--algo", "dapo"]'), "string-literal"),
        # A key and its value apart in an error message: the message lists, the branch selects.
        (
            added("fw/loss.py", """    raise ValueError(f"loss_type {x}: choose 'sigmoid' or 'dapo'")"""),
            "string-literal",
        ),
    ],
)
def test_prose_in_code_never_implements(diff, rule):
    """Docstrings, comments, TODOs and string literals that select nothing are prose, not code."""
    link = links("Some change", diff)[("Method", "dapo")]
    assert link.rule.split(";")[0] == rule
    assert link.rel == (IMPLEMENTS if rule == "option-name" else MENTIONS)


@pytest.mark.parametrize(
    "line",
    [
        '    if self.mode == "dapo":',
        '    mode: Literal["sigmoid", "dapo"] = "sigmoid"',
        '    mode: str = "dapo"',
        '    parser.add_argument("--loss", choices=["sigmoid", "dapo"])',
        '    elif loss in ("sigmoid", "dapo"):',
        '@register_policy_loss("dapo")',
        'LOSSES = {"dapo": dapo_loss}',
        '    case "dapo":',
        'def make(mode="dapo"):',
    ],
)
def test_string_literals_that_select_behaviour_implement(line):
    link = links("Some change", added("fw/loss.py", line))[("Method", "dapo")]
    assert (link.rel, link.rule) == (IMPLEMENTS, "option-value")


def test_an_option_passed_on_through_a_keyword_dict_implements():
    """`trainer_kwargs["epsilon_high"] = ...` is the same option as `Trainer(epsilon_high=...)`;
    the same key written into a batch or a result is data, not an option."""
    passed = links("Some change", added("fw/build.py", '    trainer_kwargs["epsilon_high"] = cfg.clip_high'))
    assert (passed[("Method", "dapo")].rel, passed[("Method", "dapo")].rule) == (IMPLEMENTS, "option-value")
    for line in ('    batch["epsilon_high"] = clip', '    metrics["epsilon_high"] = clip'):
        found = links("Some change", added("fw/build.py", line)).get(("Method", "dapo"))
        assert found is None or found.rel == MENTIONS


def test_ambiguous_alias_needs_a_second_signal():
    diff = added("fw/loss.py", '    if self.loss_type == "ipo":')
    alone = links("Refactor the losses", diff)[("Method", "ipo")]
    assert (
        alone.rel == MENTIONS and "ambiguous alias" in alone.rule and "without a second signal" in alone.rule
    )
    for message, signal in [
        ("Refactor the losses, see https://arxiv.org/abs/2310.12036", "arXiv id"),
        ("Add the IPO loss", "message names it"),
    ]:
        found = links(message, diff)[("Method", "ipo")]
        assert found.rel == IMPLEMENTS and found.rule.endswith(signal)
    # A name two methods share (`reinforce`) is ambiguous the same way for the method that only
    # lists it; where it selects behaviour, it selects the method whose own name it is.
    shared = CommitLinker([*METHODS, Method("reinforce-pp", "REINFORCE++", ("reinforce",)),
                           Method("reinforce", "REINFORCE", ("reinforce",))])  # fmt: skip
    found = {
        lk.key: lk for lk in shared.link("Tidy", [added("fw/adv.py", '    if est == "reinforce":')]).links
    }
    assert found["reinforce-pp"].rel == MENTIONS and "also names reinforce" in found["reinforce-pp"].rule
    assert found["reinforce"].rel == IMPLEMENTS and found["reinforce"].rule.endswith("own name")
    # A word that selects nothing is no value at all.
    bare = {lk.key: lk for lk in shared.link("Tidy", [added("fw/adv.py", "    reinforce = True")]).links}
    assert all(lk.rel == MENTIONS for lk in bare.values())


def test_an_ambiguous_value_of_an_option_named_for_what_its_method_changes_implements():
    """`group_norm` is also a normalisation layer; as a value of an option named for the advantage
    (GRPO changes the advantage), even with the key a few lines above its `choices`, it is GRPO."""
    grpo = Method("grpo", "GRPO", ("GRPO", "group_norm"), ("group_norm",), "2402.03300", change="advantage")
    linker = CommitLinker([grpo])
    for lines, implements in (
        (['    parser.add_argument(', '        "--advantage_estimator",', "        type=str,",
          '        choices=["gae", "group_norm"],'], True),
        (['    if cfg.adv_estimator == "group_norm":'], True),
        (['    if cfg.norm_layer == "group_norm":'], False),  # a layer's normalisation
        (['    advantage_estimator: str = "gae"', '    norm_layer: str = "group_norm"'], False),  # next key
        (['    if mode in ("advantage_norm", "group_norm"):'], False),  # another value, not a key
    ):  # fmt: skip
        found = {lk.key: lk for lk in linker.link("Tidy", [added("fw/cli.py", *lines)]).links}["grpo"]
        assert (found.rel == IMPLEMENTS) is implements, lines
    # A value that is another method's own name stays that method's, whatever the option.
    plus = Method("reinforce-pp", "REINFORCE++", ("reinforce",), ("reinforce",), change="advantage")
    shared = CommitLinker([plus, Method("reinforce", "REINFORCE", ("reinforce",))])
    line = '    if self.advantage_estimator == "reinforce":'
    found = {lk.key: lk for lk in shared.link("Tidy", [added("fw/adv.py", line)]).links}
    assert found["reinforce-pp"].rel == MENTIONS and found["reinforce"].rel == IMPLEMENTS


def test_a_value_a_package_spells_for_one_method_selects_it_in_that_package_and_its_copies():
    """OpenRLHF documents its `reinforce` estimator as REINFORCE++: in that package's code, and in
    every copy of it however deep, the value is REINFORCE++ and not REINFORCE, even where a message
    says "reinforce"; elsewhere the value stays the method whose own name it is."""
    plus = Method("reinforce-pp", "REINFORCE++", ("reinforce",), ("reinforce",),
                  package_spellings=(("acme_rl", ("reinforce",)),))  # fmt: skip
    linker = CommitLinker([plus, Method("reinforce", "REINFORCE", ("reinforce",))])
    line = '    if self.advantage_estimator == "reinforce":'
    for message in ("Tidy", "Add reinforce algorithm"):
        for path, owner in (
            ("acme_rl/trainer.py", "reinforce-pp"),
            ("build/lib/acme_rl/cli/train.py", "reinforce-pp"),  # a copy, packaged
            ("other_rl/trainer.py", "reinforce"),
            ("acme_rl.py", "reinforce"),  # a module of that name is no package
        ):
            links = linker.link(message, [added(path, line)]).links
            found = {lk.key: lk for lk in links if lk.rel != SPELLS}
            implements = {key for key, lk in found.items() if lk.rel == IMPLEMENTS}
            spells = [(lk.key, lk.identifier) for lk in links if lk.rel == SPELLS]
            if owner == "reinforce-pp":
                assert implements == {owner}, (message, path)
                assert "acme_rl's value for REINFORCE++" in found["reinforce"].rule
                assert spells == [("reinforce-pp", "reinforce")]  # how the package spells it, queryable
            else:
                assert owner in implements, (message, path)
    # A launcher that runs the package's module passes the package's value.
    flag = "   --advantage_estimator reinforce \\"
    for runs, owner in (("   -- python3 -m acme_rl.cli.train_ppo \\", "reinforce-pp"),
                        ("   -- python3 -m other_rl.cli.train_ppo \\", "reinforce")):  # fmt: skip
        script = added("examples/scripts/train.sh", runs, flag, status="A")
        links = linker.link("Add a script", [script]).links
        assert {lk.key for lk in links if lk.rel == IMPLEMENTS} == {owner}, runs


def test_learned_alias_from_subject_and_identifier():
    """The subject names a method; only an added identifier carrying its name is its spelling."""
    result = LINKER.link(
        "Add DAPO token aggregation (#41)",
        [added("fw/loss.py", '    if self.agg == "seq-mean-token-norm":', "        loss = loss.sum() / n")],
    )
    found = {(lk.rel, lk.key): lk for lk in result.links}
    # A bare new value carries no name of the method: it teaches nothing.
    assert ("SPELLS", "dapo") not in found and ("IMPLEMENTS", "dapo") not in found
    carried = LINKER.link("Support KTO", [added("fw/config.py", "    use_kto_loss: bool = False")]).links
    assert {(lk.rel, lk.identifier) for lk in carried} >= {
        ("SPELLS", "use_kto_loss"),
        ("IMPLEMENTS", "use_kto_loss"),
    }
    # Without the subject naming the method, nothing is learned; nor from a change that only fixes.
    assert not any(
        lk.rel == "SPELLS"
        for lk in LINKER.link("Tidy", [added("fw/config.py", "    use_kto_loss: bool = False")]).links
    )
    fixing = LINKER.link("Fix DAPO crash", [added("fw/loss.py", '    if mode == "fast-path":')]).links
    assert not any(lk.rel == "SPELLS" for lk in fixing)


DESCRIBED = CommitLinker([
    *METHODS,
    Method("opsm", "OPSM", ("OPSM", "opsm"),
           change_detail="masks negative-advantage sequences whose divergence exceeds a threshold"),
    Method("gspo", "GSPO", ("GSPO",), change_detail="importance ratio and clipping at the sequence level"),
    Method("bco", "BCO", ("BCO", "BCOTrainer"), change_detail="trains the reward as a classifier"),
])  # fmt: skip


def learned(message: str, *files: FileDiff) -> dict[str, tuple[str, str]]:
    """Method -> (identifier, rule) of what a change teaches."""
    return {
        lk.key: (lk.identifier, lk.rule)
        for lk in DESCRIBED.link(message, list(files)).links
        if lk.rel == "SPELLS"
    }


def test_learned_alias_from_an_option_that_describes_the_named_method():
    """The subject names a method and the change adds an option named after what the method does."""
    config = added("fw/config.py", "class LossConfig(TypedDict):", "    off_policy_mask_threshold: float")
    found = learned("feat: OPSM (#12)", config)
    assert found["opsm"][0] == "off_policy_mask_threshold"
    assert "shares mask, thresh" in found["opsm"][1]
    implements = {
        lk.key: lk for lk in DESCRIBED.link("feat: OPSM (#12)", [config]).links if lk.rel == IMPLEMENTS
    }
    assert implements["opsm"].location == "fw/config.py:11"
    # An option that shares no describing word, or a compared value (data, not an option), teaches nothing.
    assert learned("feat: OPSM (#12)", added("fw/config.py", "    max_new_tokens: int")) == {}
    assert learned("feat: OPSM (#12)", added("fw/loss.py", '    if kind == "seq_mask_threshold":')) == {}
    # Named only in the body, the method is not what the change is for: no describing option is learned.
    assert learned("Refactor losses (#3)\n\n* prepare OPSM", config) == {}


def test_describing_option_shared_by_two_named_methods_teaches_neither():
    option = added("fw/config.py", "    sequence_mask_threshold: float = 0.1")
    assert set(learned("Add OPSM and GSPO", option)) == {"opsm"}  # mask and threshold describe OPSM only
    more = added("fw/config.py", "    sequence_level: float = 0.1")
    assert set(learned("Add OPSM and GSPO", more)) == {"gspo"}  # sequence and level: GSPO has both
    both = added("fw/config.py", "    sequence_weight: float = 0.1")  # `sequence` describes both
    assert learned("Add OPSM and GSPO", both) == {}


def test_option_carrying_a_name_is_learned_from_the_message_body():
    """A squash-merge body names what the pull request's commits did; an option carrying the
    method's own name is its spelling even when the subject names something else."""
    change = added("fw/dpo.py", '    if self.loss_type == "bco_pair":')
    assert learned("[DPO] new loss types (#7)\n\n* add the BCO loss", change) == {
        "bco": ("bco_pair", "learned-alias: the message names 'BCO'; compare carries the method's name")
    }
    assert learned("[DPO] new loss types (#7)", change) == {}


def test_an_option_quoted_beside_a_method_in_the_message_is_its_spelling():
    """A list item or paragraph that names one method and quotes an option the change adds says
    that option is the method's, whatever the option is called."""
    option = added("fw/config.py", "class LossConfig(TypedDict):", "    scale_advantages: bool")
    body = (
        "Critic-free training (#5)\n\n- Adds `scale_advantages`.\n"
        "  Set it to `false` for the\n  Dr. GRPO objective."
    )
    found = learned(body, option)
    assert found == {
        "dr-grpo": (
            "scale_advantages",
            "learned-alias: the message names 'Dr. GRPO'; field is quoted beside it in the message",
        )
    }
    # Quoted apart from the name, beside two methods, or in a comparison: nothing is learned.
    apart = "Critic-free training (#5)\n\n- Adds `scale_advantages`.\n- Dr. GRPO comes later."
    assert learned(apart, option) == {}
    two = "Critic-free training (#5)\n\n- `scale_advantages` serves Dr. GRPO and DAPO."
    assert learned(two, option) == {}
    compared = "Critic-free training (#5)\n\n- `scale_advantages`, similar to Dr. GRPO's switch."
    assert learned(compared, option) == {}
    # An option quoted in the method's context, with no setting said to be for it, is not its switch.
    context = "Critic-free training (#5)\n\nOur Dr. GRPO runs use `scale_advantages` during rollout."
    assert learned(context, option) == {}
    named_first = "Critic-free training (#5)\n\n- Dr. GRPO: `scale_advantages=false`."
    assert set(learned(named_first, option)) == {"dr-grpo"}


CITED = CommitLinker([
    *METHODS,
    Method("hem", "High-entropy minority tokens", ("top_entropy_quantile",), arxiv_id="2506.01939",
           paper_title="Beyond the 80/20 Rule: High-Entropy Minority Tokens Drive Effective RL"),
    Method("opsm", "OPSM", ("OPSM",), arxiv_id="2512.02556", paper_title="Model-V3.2: Pushing the Frontier"),
])  # fmt: skip


def cited_links(*files: FileDiff) -> dict[str, object]:
    return {lk.key: lk for lk in CITED.link("Add options (#9)", list(files)).links if lk.label == "Method"}


def test_an_option_documented_as_a_method_implements_it():
    """The help text or docstring of a new option, or the comment above it, naming the method."""
    field_doc = added(
        "fw/config.py", "    mask_truncated: bool = False", '    """Overlong filtering, as in DAPO."""'
    )
    found = cited_links(field_doc)["dapo"]
    assert (found.rel, found.identifier, found.location) == (IMPLEMENTS, "mask_truncated", "fw/config.py:10")
    assert found.rule.startswith("option-doc; the field 'mask_truncated' is documented as 'DAPO'")
    flag = added(
        "fw/cli.py",
        "    # DAPO's dynamic sampling",
        '    parser.add_argument("--filter_groups", action="store_true")',
    )
    assert cited_links(flag)["dapo"].rel == IMPLEMENTS
    # Prose with no new option beside it stays a mention; nor is a function's annotated local an option.
    far = added("fw/loss.py", "def loss(x):", '    """Unlike DAPO, no token mean."""', "    return x")
    assert cited_links(far)["dapo"].rel == MENTIONS
    local = added("fw/loop.py", "        # DAPO-style batches", "        batch: Batch = Batch.from_dict(raw)")
    assert cited_links(local)["dapo"].rel == MENTIONS
    # A file's header describes the file: a word of it that is also a key far below names no option.
    header = added("fw/run.yaml", "# Settings for DAPO runs of a small model", *[""] * 10, "model:", "  n: 8")
    assert cited_links(header)["dapo"].rel == MENTIONS
    # Prose that names the option by its identifier documents it, however far the option is.
    named = added(
        "fw/loss.py", '    """Losses.', "    - DAPO (set use_token_mean = True)", '    """',
        *["    other: int = 1"] * 8, "    use_token_mean: bool = False",
    )  # fmt: skip
    assert cited_links(named)["dapo"].identifier == "use_token_mean"


def test_a_constructor_parameter_the_object_keeps_is_an_option():
    """A library whose classes take their options as keyword parameters (`Trainer(use_dapo=True)`)."""
    signature = ("        self,", "        filter_groups = False,  # DAPO dynamic sampling", "    ):")
    kept = added("fw/trainer.py", *signature, "        self.filter_groups = filter_groups")
    found = cited_links(kept)["dapo"]
    assert (found.rel, found.identifier) == (IMPLEMENTS, "filter_groups")
    assert found.rule.startswith("option-doc; the init-param 'filter_groups'")
    # A parameter nothing keeps is a function's local name; a class's docstring names no parameter.
    assert cited_links(added("fw/trainer.py", *signature))["dapo"].rel == MENTIONS
    docstring = added(
        "fw/trainer.py", '    """A DAPO trainer."""', "    def __init__(", "        self,",
        "        num_workers = 1,", "    ):", "        self.num_workers = num_workers",
    )  # fmt: skip
    assert cited_links(docstring)["dapo"].rel == MENTIONS
    # A signature's typed parameter earlier in the file does not hide a config field below it.
    both = added(
        "fw/config.py", "        beta: float = 0.1,", "    ):", "        pass",
        "    mask_truncated: bool = False", '    """Overlong filtering, as in DAPO."""',
    )  # fmt: skip
    assert cited_links(both)["dapo"].identifier == "mask_truncated"


def test_a_parameter_entry_documents_the_option_of_its_name_in_another_file():
    """A loss function's docstring entry names the method for its parameter; the config field of the
    same name, passed on to it, is the option users set."""
    loss = added(
        "fw/core.py", "def policy_loss(ratio, adv, shaping_coef: float):", '    """Policy loss.', "",
        "    Args:", "        shaping_coef: (float)", "            The overlong shaping used in DAPO.",
        '    """',
    )  # fmt: skip
    config = added("fw/config.py", "    shaping_coef: float = 1.0")
    found = cited_links(loss, config)["dapo"]
    assert (found.rel, found.identifier, found.location) == (IMPLEMENTS, "shaping_coef", "fw/config.py:10")
    # Without such an option the parameter is no option: the entry stays a mention.
    assert cited_links(loss)["dapo"].rel == MENTIONS
    other = added("fw/config.py", "    warmup_steps: int = 10")
    assert cited_links(loss, other)["dapo"].rel == MENTIONS


def test_an_option_citing_a_paper_implements_its_method_unless_the_paper_is_a_report():
    """A docstring's entry for an option citing the paper by link or title, even far from the field."""
    entry = added(
        "fw/config.py",
        '    """The trainer\'s options.',
        "",
        "    Args:",
        "        token_entropy_threshold (`float`):",
        "            From [Beyond the 80/20 Rule](https://arxiv.org/abs/2506.01939): masks tokens.",
        '    """',
        *(["    other: int = 1"] * 8),
        "    token_entropy_threshold: float = 0.0",
    )  # fmt: skip
    found = cited_links(entry)["hem"]
    assert (found.rel, found.identifier) == (IMPLEMENTS, "token_entropy_threshold")
    by_title = added("fw/config.py", "    entropy_cut: float = 0.0", "    # beyond the 80/20 rule, section 3")
    assert cited_links(by_title)["hem"].rel == IMPLEMENTS
    # A model's report brings many techniques: citing it for an option pins none of them.
    report = added(
        "fw/config.py", "    bias_correction: bool = False", "    # https://arxiv.org/abs/2512.02556"
    )
    assert "opsm" not in cited_links(report)


def test_new_module_implements_only_when_reached():
    module = added("fw/losses/kto.py", "def loss(x):", "    return x", status="A")
    alone = links("Add a helper", module)[("Method", "kto")]
    assert alone.rel == MENTIONS and alone.rule.startswith("new-file; nothing in this change")
    wired = links("Add a helper", module, added("fw/trainer.py", "from fw.losses.kto import loss"))
    assert (wired[("Method", "kto")].rel, wired[("Method", "kto")].rule) == (IMPLEMENTS, "new-file")
    later = links("Use the helper", added("fw/trainer.py", "from fw.losses.kto import loss"))
    assert (later[("Method", "kto")].rel, later[("Method", "kto")].rule) == (IMPLEMENTS, "wiring")


def test_a_script_whose_top_level_loop_trains_runs_itself():
    # Launched by `deepspeed` or `torchrun` as it is: no `__main__` guard, no import needed.
    script = ("def grpo_step(batch):", "    return loss(batch)", "engine = setup()",
              "for step in range(100):", "    engine.backward(grpo_step(next_batch()))")  # fmt: skip
    found = links("Add files", added("grpo_train.py", *script, status="A"))[("Method", "grpo")]
    assert (found.rel, found.rule) == (IMPLEMENTS, "new-file")
    # The same definitions with nothing run at the module's top level are a library module.
    library = links("Add files", added("grpo_train.py", *script[:3], status="A"))[("Method", "grpo")]
    assert library.rel == MENTIONS and library.rule.startswith("new-file; nothing in this change")


def test_a_folder_spelled_with_plus_plus_names_that_method():
    linker = CommitLinker([read_catalog().methods[s] for s in ("reinforce", "reinforce-pp")])
    script = ("def step(batch):", "    return loss(batch)", "for batch in loader:", "    step(batch)")
    found = {
        lk.key: lk
        for lk in linker.link("Add files", [added("simple-reinforce++/train.py", *script, status="A")]).links
    }
    assert found["reinforce-pp"].rel == IMPLEMENTS and "reinforce" not in found


def test_a_variants_own_file_and_classes_do_not_implement_its_ancestor():
    """SimPO's trainer offers a `sigmoid` loss of its own (no reference model), and its config is
    built on DPO's: neither makes DPO something users of the project run."""
    linker = CommitLinker([read_catalog().methods[s] for s in ("dpo", "cpo", "simpo")])

    def found(*files: FileDiff) -> dict:
        return {lk.key: lk for lk in linker.link("Release", list(files)).links if lk.label == "Method"}

    setting = (
        '        if self.loss_type == "sigmoid":',
        "            losses = -logsigmoid(self.beta * logits)",
    )
    assert found(added("scripts/simpo_trainer.py", *setting)).get("dpo") is None
    assert found(added("fw/dpo_trainer.py", *setting))["dpo"].rel == IMPLEMENTS
    based = (
        "from alignment import (",
        "    DPOConfig,",
        ")",
        "class SimPOConfig(DPOConfig):",
        "    gamma: float = 0.5",
    )
    assert found(added("scripts/run.py", *based)).get("dpo", None) is None
    # Used as well as built on, the class is the project's: its script trains DPO.
    used = (*based, "config = DPOConfig(beta=0.1)")
    assert found(added("scripts/run.py", *used))["dpo"].rel == IMPLEMENTS
    # Imported and never used (a leftover of the file it was copied from), it is used by nothing.
    leftover = added("scripts/simpo_trainer.py", "from trl.trainer import CPOTrainer", "class SimPOTrainer:")
    assert found(leftover).get("cpo", None) is None
    imported_and_used = added("scripts/run.py", "from trl import CPOTrainer", "trainer = CPOTrainer(model)")
    assert found(imported_and_used)["cpo"].rel == IMPLEMENTS


def test_an_ambiguous_name_in_its_own_capitals_documents_only_an_option_carrying_it():
    """`REINFORCE` (not the verb) in a help text documents the option beside it that carries the word;
    the same word beside any other option, or as the verb, documents nothing."""
    linker = CommitLinker([read_catalog().methods[s] for s in ("reinforce", "reinforce-pp")])

    def found(*lines: str) -> object:
        links = linker.link("Upgrade the trainer (#34)", [added("fw/ppo.py", *lines)]).links
        return {lk.key: lk for lk in links if lk.label == "Method"}.get("reinforce")

    help_text = '        metadata={"help": "The simplest REINFORCE updates."},'
    carried = found("    reinforce_update: bool = field(", "        default=False,", help_text, "    )")
    assert (carried.rel, carried.identifier) == (IMPLEMENTS, "reinforce_update")
    other = found("    num_epochs: int = field(", "        default=1,", help_text, "    )")
    assert other is None or other.rel == MENTIONS
    verb = help_text.replace("REINFORCE", "reinforce")
    plain = found("    reinforce_update: bool = field(", "        default=False,", verb, "    )")
    assert plain is None or plain.rel == MENTIONS


def test_a_typo_fix_implements_nothing():
    # The line sits in a docstring whose opening quotes lie outside a diff without context.
    docstring = added("scripts/train.py", "3) We use DAPO style normalization that is token-level.")
    assert links("Update train.py: use DAPO", docstring)[("Method", "dapo")].rel == IMPLEMENTS
    for subject in ('typo in comments: change "GAPO" to "DAPO"', "[docs] Fix typo: DAPO (#12)",
                    "docs(rl): fix a typo in the DAPO note"):  # fmt: skip
        fixed = links(subject, docstring)[("Method", "dapo")]
        assert (fixed.rel, fixed.rule) == (MENTIONS, "typo-fix")
    assert links("Add DAPO and fix a typo", docstring)[("Method", "dapo")].rel == IMPLEMENTS


def test_a_new_module_that_only_promises_implements_nothing():
    # It runs itself (`__main__`), so users reach it; but what they reach does nothing yet.
    stub = ('"""GRPO."""', "def command(*, config):", '    """Train with GRPO."""', "    # logic goes here",
            "    print(config)", 'if __name__ == "__main__":', "    command()")  # fmt: skip
    found = links("Scaffold", added("fw/grpo/command.py", *stub, status="A"))[("Method", "grpo")]
    assert (found.rel, found.rule) == (MENTIONS, "new-file; its functions do nothing yet")
    real = (*stub[:4], "    return GRPOTrainer(config).train()", *stub[5:])
    found = links("Scaffold", added("fw/grpo/command.py", *real, status="A"))[("Method", "grpo")]
    assert (found.rel, found.rule) == (IMPLEMENTS, "new-file")
    # An empty file, a package marker or a placeholder, implements nothing either.
    assert ("Method", "grpo") not in links(
        "Scaffold", FileDiff("fw/grpo/__init__.py", "A", None, 0, 0, False, "")
    )


@pytest.mark.parametrize(
    ("lines", "stub"),
    [
        (["def loss(x):", "    raise NotImplementedError"], True),
        (["class Loss(Base):", '    """A loss."""', "    def __call__(self, x):", "        pass"], True),
        (["import torch", "app = App()", "def main():", "    return None"], True),
        (["def loss(x):", "    return -x.mean()"], False),
        (["class Config:", "    beta: float = 0.1", "    def check(self):", "        pass"], False),
        (["x = 1"], False),  # no function: nothing promised
        (["def loss(x:"], False),  # not Python that parses
    ],
)
def test_stub_modules(lines, stub):
    assert is_stub("\n".join(lines)) is stub


def test_a_package_inside_a_private_one_is_reached_only_by_an_import_from_outside():
    """Users import a public package's `__init__`; `fw/_lite/kto/` is internal until imported."""
    init = added("fw/_lite/kto/__init__.py", "from .loss import KTOLoss", status="A")
    loss = added("fw/_lite/kto/loss.py", "class KTOLoss:", "    pass", status="A")
    alone = links("Add the kto helpers", init, loss)[("Method", "kto")]
    assert alone.rel == MENTIONS
    public = added("fw/kto/__init__.py", "from .loss import KTOLoss", status="A")
    assert links("Add the kto helpers", public)[("Method", "kto")].rel == IMPLEMENTS
    trainer = added("fw/train.py", "from fw._lite.kto import KTOLoss")
    assert links("Add the kto helpers", init, loss, trainer)[("Method", "kto")].rel == IMPLEMENTS


def test_a_class_in_a_new_module_implements_only_when_reached():
    module = added("fw/agents/policy.py", "class GRPOTrainer:", "    pass", status="A")
    alone = links("Refactor the samplers", module)[("Method", "grpo")]
    assert alone.rel == MENTIONS and "its new module is reached by nothing" in alone.rule
    # A change that says what it adds is its own second signal: the class is the method's trainer.
    said = links("Add a GRPO trainer", module)[("Method", "grpo")]
    assert said.rel == IMPLEMENTS and said.rule.endswith("message names it")
    exported = links("Refactor the samplers", module, added("fw/__init__.py", "from .agents.policy import *"))
    assert (exported[("Method", "grpo")].rel, exported[("Method", "grpo")].rule) == (IMPLEMENTS, "class-def")
    # In a module that already exists, the class is as reachable as the module.
    grown = links("Refactor", added("fw/agents/policy.py", "class GRPOTrainer:", "    pass"))
    assert grown[("Method", "grpo")].rel == IMPLEMENTS


def test_an_ambiguous_preference_method_needs_preference_pairs_in_the_change():
    """`IPO` in an RL loss with no chosen or rejected answer in sight is some other IPO, even when
    the message says IPO; beside preference pairs it is the preference loss."""
    ipo = Method("ipo", "IPO", ("IPO", "ipo"), ("IPO", "ipo"), "2310.12036", family="preference")
    linker = CommitLinker([ipo])
    policy = added("fw/rl/loss.py", '    type: Literal["ipo"] = "ipo"', "    mask = probs_diff > threshold")
    other = {lk.key: lk for lk in linker.link("Add the IPO loss (#2798)", [policy]).links}["ipo"]
    assert other.rel == MENTIONS and other.rule.endswith("(and no preference pairs in the change)")
    pairs = added(
        "fw/rl/loss.py", '    type: Literal["ipo"] = "ipo"', "    h = chosen_logratios - rejected_logratios"
    )
    found = {lk.key: lk for lk in linker.link("Add the IPO loss (#2798)", [pairs]).links}["ipo"]
    assert (found.rel, found.rule.rsplit(", ", 1)[-1]) == (IMPLEMENTS, "message names it")


def test_a_method_known_by_what_it_computes_implements_where_the_change_says_what_for():
    bt = Method(
        "bt-reward-model", "Bradley-Terry reward model", ("RewardTrainer",), family="reward-model",
        computation=r"logsigmoid\(\s*\w+\s-\s\w+\)", computation_context=r"reward[ _-]?model|_rm\b",
    )  # fmt: skip
    linker = CommitLinker([bt])
    loss = added("fw/engine/pairwise.py", "    loss = -F.logsigmoid(chosen - rejected).mean()")

    def found(message, *files):
        return {lk.key: lk for lk in linker.link(message, list(files)).links}.get("bt-reward-model")

    link = found("Add reward model fine-tuning (#331)", loss)
    assert (link.rel, link.rule, link.location) == (IMPLEMENTS, "computation", "fw/engine/pairwise.py:10")
    assert found("Initial commit", loss, added("fw/train_rm.py", "main()", status="A")).rel == IMPLEMENTS
    assert found("Add pairwise ranking", loss) is None  # the same loss, nothing says it trains a reward model
    commented = added("fw/engine/pairwise.py", "    # loss = -F.logsigmoid(chosen - rejected)")
    assert found("Add reward model fine-tuning", commented) is None
    # An example's program that trains with it is a recipe; an example's config computes nothing.
    line = "    loss = -F.logsigmoid(chosen - rejected).mean()"
    program = found("Add reward model example", added("examples/rm/train.py", line))
    assert (program.rel, program.recipe) == (IMPLEMENTS, True)
    assert found("Add reward model example", added("examples/rm/run.sh", line)) is None


def test_the_catalogs_bradley_terry_loss_is_found_when_its_call_spans_two_lines():
    linker = CommitLinker([read_catalog().methods["bt-reward-model"]])
    loss = added(
        "fw/rm/loss.py", "    loss += -torch.log(", "        torch.sigmoid(chosen_reward - rejected_reward)"
    )
    link = {lk.key: lk for lk in linker.link("Train the reward model", [loss]).links}.get("bt-reward-model")
    assert (link.rel, link.rule) == (IMPLEMENTS, "computation")
    # A formatter puts a long call's argument on a line of its own.
    spread = added(
        "fw/rm/model.py", "    loss += -torch.nn.functional.logsigmoid(",
        "        chosen_reward[c_ind] - rejected_reward[r_ind]", "    ).mean()",
    )  # fmt: skip
    link = {lk.key: lk for lk in linker.link("Train the reward model", [spread]).links}.get("bt-reward-model")
    assert (link.rel, link.rule) == (IMPLEMENTS, "computation")
    # The same loss in other words: the sigmoid, then its log; log(1 + exp(r - c)); softplus(r - c).
    for lines in (
        ("        probs = torch.sigmoid(chosen_reward - reject_reward)", "        logp = torch.log(probs)"),
        ("        loss = torch.log(1 + torch.exp(reject_reward - chosen_reward)).mean()",),
        ("        loss = F.softplus(rejected_reward - chosen_reward).mean()",),
    ):
        diff = added("fw/models/loss.py", *lines)
        link = {lk.key: lk for lk in linker.link("Add the reward model", [diff]).links}.get("bt-reward-model")
        assert (link.rel, link.rule) == (IMPLEMENTS, "computation"), lines
    # A sigmoid alone, or DPO's margin of log ratios, is no reward model's loss.
    for line in ("        p = torch.sigmoid(chosen_reward - reject_reward)",
                 "        losses = F.softplus(-(policy_chosen_logps - policy_rejected_logps))"):  # fmt: skip
        diff = added("fw/models/loss.py", line)
        assert "bt-reward-model" not in {lk.key for lk in linker.link("Add the reward model", [diff]).links}


def test_rloo_is_known_by_its_leave_one_out_baseline():
    """The mean reward of the other samples of a prompt, in the forms frameworks write it, where the
    change says it is a leave-one-out baseline."""
    linker = CommitLinker([read_catalog().methods["rloo"]])

    def found(message, line):
        diff = added("fw/rl/advantages.py", line)
        return {lk.key: lk for lk in linker.link(message, [diff]).links}.get("rloo")

    for line in (
        "    baseline = (rewards.sum(-1, keepdim=True) - rewards) / (n_samples - 1)",
        "    loo_mean = (group_sum - current_reward) / (group_count - 1)",
        "    scores[i] = scores[i] * n / (n - 1) - means[i] * n / (",
    ):
        link = found("Add LOO baselines", line)
        assert (link.rel, link.rule) == (IMPLEMENTS, "computation"), line
    assert found("Refactor advantages", "    b = (group_sum - r) / (group_count - 1)") is None
    assert found("Add LOO baselines", "    mean = group_sum / group_count") is None  # the plain mean


def test_tis_is_known_by_its_capped_trainer_rollout_ratio():
    """Truncated importance sampling under a framework's own names: the ratio of the trainer's to
    the rollout engine's probabilities, capped from above, on one line or over a few. PPO's ratio
    to the old policy, a two-sided clip and a cap from below are not that."""
    linker = CommitLinker([read_catalog().methods["tis"]])

    def found(message, *lines):
        diff = added("fw/rl/loss.py", *lines)
        return {lk.key: lk for lk in linker.link(message, [diff]).links}.get("tis")

    for lines in (
        ("    w = torch.exp(old_log_probs - rollout_log_probs).clamp(max=self.is_cap).detach()",),
        ("    ratio = torch.exp(logps - vllm_logps)", "", "    w = torch.clamp(ratio, max=args.cap)"),
        ("    adv = adv * torch.clamp(", "      (recomputed - rollout_logprobs).exp(),", "      max=cap,"),
    ):
        link = found("Correct the rollout mismatch", *lines)
        assert (link.rel, link.rule) == (IMPLEMENTS, "computation"), lines
    assert found("Refactor the loss", "    w = torch.exp(lp - rollout_lp).clamp(max=c)") is None  # no context
    for lines in (
        ("    w = torch.clamp(torch.exp(logp - old_logp), max=1 + eps_high).detach()",),
        ("    adv = adv * torch.clamp((recomputed - rollout_logprobs).exp(), min=floor)",),
        ("    log_ratio = torch.clamp(logp - rollout_logp, min=-20, max=20)",),
    ):
        assert found("Correct the rollout mismatch", *lines) is None, lines


def test_icepop_is_known_by_its_band_mask_on_the_trainer_rollout_ratio():
    """Frameworks add IcePop under their own names: a mask keeping the tokens whose importance ratio
    lies between a lower and an upper bound, on one line or two. A cap alone (TIS), a clip mask
    that depends on the advantage's sign (PPO) and a metric of the ratio are not that mask."""
    linker = CommitLinker([read_catalog().methods["icepop"]])

    def found(message, *lines):
        diff = added("fw/rl/loss.py", *lines)
        return {lk.key: lk for lk in linker.link(message, [diff]).links}.get("icepop")

    band = "    keep_mask = (is_ratio >= cfg.ratio_low) & (is_ratio <= cfg.ratio_high)"
    link = found("Add rollout correction (#12)", band)
    assert (link.rel, link.rule, link.location) == (IMPLEMENTS, "computation", "fw/rl/loss.py:10")
    assert link.identifier.startswith("is_ratio >= cfg.ratio_low")
    two_lines = ("    masked_low = ratio < cfg.mask_low", "    masked_high = ratio > cfg.mask_high")
    quoted = found("Two-sided masking", *two_lines).identifier
    assert quoted == "ratio < cfg.mask_low masked_high = ratio > cfg.mask_high"
    assert found("Refactor", band) is None  # nothing in the change says what the ratio is for
    assert found("Add rollout correction", "    weights = ratio.clamp(max=cfg.ratio_high)") is None
    by_sign = "    clip_mask = (adv > 0) & (ratio > cfg.clip_upper) | (adv < 0) & (ratio < cfg.clip_lower)"
    assert found("Add rollout correction", by_sign) is None
    metric = '    metrics["mask_frac"] = ((ratio < cfg.low) | (ratio > cfg.high)).float().mean()'
    assert found("Add rollout correction", metric) is None
    assert found("Add rollout correction", "    # keep_mask = (r >= lo_min) & (r <= hi_max)") is None
    # The weakest sign: where the subject names IcePop over its parent's option, that is the link,
    # and the option is learned as IcePop's spelling.
    catalog = read_catalog().methods
    named = CommitLinker([catalog["icepop"], catalog["tis"]]).link(
        "Add IcePop", [added("fw/rl/config.py", "    use_tis: bool = False", band)]
    )
    kinds = {(lk.rel, lk.key): lk.rule for lk in named.links}
    assert ("SPELLS", "icepop") in kinds and kinds[("IMPLEMENTS", "icepop")] != "computation"


def test_vendored_copies_and_recipes_are_marked():
    linker = CommitLinker(METHODS, vendored_packages=["otherfw"])
    copied = {
        lk.key: lk for lk in linker.link("Copy", [added("otherfw/trainer/kto.py", "class KTOTrainer:")]).links
    }
    link = copied["kto"]
    assert link.rel == IMPLEMENTS and link.vendored == "otherfw" and link.confidence < 0.95
    assert link.evidence().props()["vendored"] is True and "vendored copy of otherfw" in link.rule
    # A launcher of the other framework's package that arrives with the copy is the copy's example;
    # one added on its own is the wrapper's recipe: its users run what it sets.
    copy = added("otherfw/trainer/main.py", "def main():", status="A")
    for command, files, vendored in (
        ("python3 -m otherfw.trainer.main", [copy], "otherfw"),
        ("python3 -m otherfw.trainer.main", [], ""),
        ("python -m fw.train", [copy], ""),
    ):
        run = added("examples/run_dapo.sh", f"{command} \\", "  loss_type=dapo", status="A")
        dapo = {lk.key: lk for lk in linker.link("Example", [run, *files]).links}["dapo"]
        assert (dapo.rel, dapo.vendored, dapo.recipe) == (IMPLEMENTS, vendored, True)
    # A repository copied whole into a folder of its own (`otherfw/setup.py` beside `otherfw/otherfw/`):
    # its examples are inside that folder; a launcher outside it, even in the same change, is the
    # wrapper's own script.
    nested = [
        added("otherfw/setup.py", "setup()", status="A"),
        added("otherfw/otherfw/trainer/main.py", "def main():", status="A"),
    ]
    for path, vendored in (("otherfw/examples/run_dapo.sh", "otherfw"), ("scripts/run_dapo.sh", "")):
        run = added(path, "python3 -m otherfw.trainer.main \\", "  loss_type=dapo", status="A")
        dapo = {lk.key: lk for lk in linker.link("Initial import", [run, *nested]).links}["dapo"]
        assert (dapo.rel, dapo.vendored, dapo.recipe) == (IMPLEMENTS, vendored, True), path
    # The same with the copy's package under `src/`: its example configs, which name no package,
    # came with it.
    src_layout = [
        added("train/Other-FW/pyproject.toml", "[project]", status="A"),
        added("train/Other-FW/src/otherfw/__init__.py", "", status="A"),
    ]
    for path, vendored in (("train/Other-FW/examples/dapo.yaml", "otherfw"), ("examples/dapo.yaml", "")):
        config = added(path, "loss_type: dapo", status="A")
        dapo = {lk.key: lk for lk in linker.link("Initial import", [config, *src_layout]).links}["dapo"]
        assert (dapo.rel, dapo.vendored, dapo.recipe) == (IMPLEMENTS, vendored, True), path
    recipe = links("Example", added("examples/run_dapo.sh", "python -m fw.train loss_type=dapo \\"))
    assert recipe[("Method", "dapo")].rel == IMPLEMENTS
    assert recipe[("Method", "dapo")].evidence().props()["implementation"] == "recipe"
    code = links("Code", added("fw/loss.py", '    if self.loss_type == "dapo":'))[("Method", "dapo")]
    assert code.evidence().props()["implementation"] == "code"
    # An example's prose is still only a mention.
    assert links("Doc", added("examples/README.md", "Run DAPO."))[("Method", "dapo")].rel == MENTIONS


def test_a_recipe_running_one_methods_stage_with_anothers_loss_runs_the_other():
    """LLaMA-Factory runs SimPO, ORPO and NCA under its `dpo` stage, chosen by `pref_loss`: such a
    recipe runs the loss's method, and the stage's method only shares its trainer. A loss of
    another family, or the stage's own loss, leaves the stage's method standing."""
    linker = CommitLinker([read_catalog().methods[s] for s in ("dpo", "nca", "simpo", "ppo", "grpo", "gspo")])

    def implemented(path, *lines):
        links = linker.link("Add training scripts", [added(path, *lines, status="A")]).links
        return {lk.key for lk in links if lk.rel == IMPLEMENTS}

    assert implemented("scripts/train_dpo.sh", "deepspeed src/train.py \\", "  --stage dpo \\",
                       "  --pref_loss nca_pair \\") == {"nca"}  # fmt: skip
    assert "dpo" not in implemented("examples/full/simpo.yaml", "stage: dpo", "pref_loss: simpo")
    assert "dpo" in implemented("examples/full/dpo.yaml", "stage: dpo", "pref_loss: sigmoid")
    assert "dpo" in implemented("examples/full/dpo.yaml", "stage: dpo", "critic_loss: ppo")  # another family
    # GRPO's advantage with GSPO's loss runs both.
    run = ("python3 -m fw.main_ppo \\", "  algorithm.adv_estimator=grpo \\", "  actor.loss_mode=gspo")
    assert {"grpo", "gspo"} <= implemented("examples/run_gspo.sh", *run)


def test_a_new_recipe_named_after_a_method_runs_it_when_the_change_says_so():
    config = added("examples/math/gsm8k_dapo.yaml", "actor:", "  lr: 1e-6", status="A")
    said = links("Support DAPO (#408)", config)[("Method", "dapo")]
    assert (said.rel, said.location, said.evidence().props()["implementation"]) == (
        IMPLEMENTS, "examples/math/gsm8k_dapo.yaml:1", "recipe",
    )  # fmt: skip
    assert said.rule.startswith("recipe-file; a recipe named after it, message names it")
    # Its name alone may be a dataset's or a family's; an example program is judged by its code.
    assert ("Method", "dapo") not in links("Add examples", config)
    program = links("Support DAPO", added("examples/train_dapo.py", "main()", status="A")).get(
        ("Method", "dapo")
    )
    assert program is None or not program.rule.startswith("recipe-file")


def test_a_shell_script_anywhere_is_a_launcher_users_run():
    named = links("Support DAPO", added("scripts/run_dapo.sh", "python train.py", status="A"))
    assert named[("Method", "dapo")].rule.startswith("recipe-file; a recipe named after it, message names it")
    setting = links("Add script", added("scripts/train.sh", "python -m fw.train loss_type=dapo \\"))
    dapo = setting[("Method", "dapo")]
    assert (dapo.rel, dapo.rule) == (IMPLEMENTS, "recipe-setting")


def test_a_quoted_item_of_a_list_a_recipe_assigns_is_a_value_it_runs():
    for line in ('loss_types=("sigmoid" "dr_grpo")', 'losses = ["sigmoid", "dr_grpo"]'):
        run = links("Add ablations", added("recipes/scan/launch.sh", line, 'run --loss_type="$l"'))
        listed = run[("Method", "dr-grpo")]
        assert (listed.rel, listed.rule) == (IMPLEMENTS, "recipe-value")
    said = links("Add ablations", added("recipes/scan/launch.sh", 'echo "sigmoid and dr_grpo"'))
    assert said[("Method", "dr-grpo")].rel == MENTIONS  # a string that is no list item selects nothing


@pytest.mark.parametrize(
    ("line", "implements"),
    [
        ("   --loss_type dr_grpo \\", True),  # a flag's value after a space, as argparse reads it
        ('   --loss_type "dr_grpo" \\', True),
        ("   --save_path ./ckpt/dr_grpo \\", False),  # a path that ends in the name selects nothing
        ("   # --loss_type dr_grpo", False),  # commented out
    ],
)
def test_a_flag_value_a_launcher_passes_after_a_space_is_a_value_it_runs(line, implements):
    run = links("Add launcher", added("scripts/train.sh", "python -m fw.cli.train \\", line, status="A"))
    found = run.get(("Method", "dr-grpo"))
    assert (found is not None and found.rel == IMPLEMENTS) is implements


def test_a_module_path_in_an_import_is_no_option_and_another_frameworks_module_wires_nothing():
    linker = CommitLinker(METHODS, vendored_packages=["otherfw"])

    def found(line: str) -> tuple[str, str] | None:
        made = linker.link("Add envs", [added("fw/envs/base.py", line)]).links
        hit = next((lk for lk in made if lk.key == "dr-grpo"), None)
        return hit and (hit.rel, hit.rule)

    # A type imported from the other framework's module of that name: not this framework's option.
    assert found("from otherfw.trainer.dr_grpo import RewardFunc") == (MENTIONS, "code-word")
    assert found("from fw.losses.dr_grpo import loss") == (IMPLEMENTS, "wiring")  # its own module
    assert found("from fw.losses import dr_grpo") == (IMPLEMENTS, "option-name")  # the name imported


def test_a_name_beside_an_ambiguous_alias_is_a_second_signal():
    tis = Method("tis", "TIS", ("TIS", "tis", "truncated importance sampling"), ("TIS", "tis"))
    linker = CommitLinker([*METHODS, tis])
    line = '    elif variant == "tis":  # Truncated Importance Sampling'
    found = {lk.key: lk for lk in linker.link("Sync", [added("fw/loss.py", line)]).links}
    assert found["tis"].rel == IMPLEMENTS and found["tis"].rule.endswith("named beside it")
    bare = {lk.key: lk for lk in linker.link("Sync", [added("fw/loss.py", line.split("  #")[0])]).links}
    assert bare["tis"].rel == MENTIONS


def test_a_flag_in_a_call_spanning_lines_after_an_unmatched_closer():
    """The added lines start inside an earlier call: its closing bracket must not end the next
    statement early, or the flag's own call is lost."""
    diff = added(
        "fw/args.py",
        "        )",
        "        parser.add_argument(",
        '            "--norm_adv_by_std_in_grpo",',
        '            action="store_false",',
        "        )",
    )
    link = links("Options", diff)[("Method", "dr-grpo")]
    assert (link.rel, link.rule, link.location) == (IMPLEMENTS, "option-flag", "fw/args.py:12")


def test_the_documentation_a_change_adds_is_a_second_signal():
    """`opd` registered in code is ambiguous; the page the change adds names the method in words."""
    gkd = Method("gkd", "GKD", ("GKD", "opd", "on-policy distillation"), ("opd",))
    linker = CommitLinker([*METHODS, gkd])
    code = added("fw/adv.py", '@register_advantage("opd")', "def compute(x):", "    return x")
    page = added("docs/algorithms/opd.rst", "OPD (On-Policy Distillation) trains the student on its samples.")
    found = {lk.key: lk for lk in linker.link("feat: add OPD training (#9)", [code, page]).links}
    assert found["gkd"].rel == IMPLEMENTS and found["gkd"].rule.endswith(
        "the change's documentation names it"
    )
    # The page naming it only by the ambiguous word, or code alone, is no second signal.
    vague = added("docs/algorithms/opd.rst", "OPD trains the student on its samples.")
    for files in ([code], [code, vague]):
        alone = {lk.key: lk for lk in linker.link("feat: add training (#9)", files).links}
        assert alone["gkd"].rel == MENTIONS and "without a second signal" in alone["gkd"].rule


def test_an_option_documented_by_the_methods_name_in_words_implements_it():
    tis = Method("tis", "Truncated Importance Sampling (TIS)", ("TIS", "tis"), ("TIS", "tis"))
    linker = CommitLinker([*METHODS, tis])
    field = added(
        "fw/algorithms/ppo.py",
        "    tis_c: Optional[float] = field(",
        "        default=2.0,",
        '        metadata={"help": "Truncated importance sampling for rollout mismatch."},',
        "    )",
    )
    found = {lk.key: lk for lk in linker.link("fix: precision mismatch (#62)", [field]).links}["tis"]
    assert (found.rel, found.identifier) == (IMPLEMENTS, "tis_c")
    assert "documented as 'truncated importance sampling'" in found.rule
    # "Robust DPO" in a help text is as often a description of a DPO variant as the method's name.
    robust = Method("robust-dpo", "Robust DPO", ("loss_type=robust",), ())
    linker = CommitLinker([*METHODS, Method("dpo", "DPO", ("DPO",), ()), robust])
    smoothing = added("fw/config.py", "    smoothing: float = 0.0", '    """The robust DPO smoothing."""')
    assert "robust-dpo" not in {lk.key for lk in linker.link("Add (#9)", [smoothing]).links}


def test_a_signature_line_is_a_parameter_not_an_option():
    """Black puts one parameter per line at a class body's depth; a trailing comma gives it away."""
    dr = Method("dr-grpo", "Dr. GRPO", ("Dr. GRPO",), ())
    linker = CommitLinker([dr])

    def implements(field: str) -> bool:
        diff = added("fw/loss.py", "class Config:", field, '    """Loss normalisation as in Dr. GRPO."""')
        return any(lk.rel == IMPLEMENTS for lk in linker.link("Add (#9)", [diff]).links)

    assert implements("    warmup: Optional[bool] = False")
    assert not implements("    warmup: Optional[bool] = False,")


def test_a_reached_definition_named_after_a_method_implements_it():
    """`compute_decoupled_ppo_actor_loss` names Decoupled PPO; it implements once something reaches it."""
    decoupled = Method("decoupled-ppo", "Decoupled PPO", ("use_decoupled_loss",), ())
    linker = CommitLinker([*METHODS, decoupled])
    loss = added("fw/losses.py", "def compute_decoupled_ppo_actor_loss(logprobs):", "    return logprobs")
    dispatch = added(
        "fw/actor.py",
        '    elif loss_type == "decoupled":',
        "        loss = compute_decoupled_ppo_actor_loss(lp)",
    )
    registered = added(
        "fw/losses.py",
        '@register_policy_loss("decoupled")',
        "def compute_decoupled_ppo_loss(x):",
        "    return x",
    )

    def found(*files):
        return {lk.key: lk for lk in linker.link("feat: async training (#654)", list(files)).links}

    for files in ([loss, dispatch], [registered]):
        link = found(*files)["decoupled-ppo"]
        assert (link.rel, link.rule) == (IMPLEMENTS, "named-definition")
    assert "decoupled-ppo" not in found(loss)  # a helper nothing calls yet
    # An acronym inside camel case ends where a capitalised word starts: `DecoupledPPOLoss`.
    camel = added("fw/losses.py", "class DecoupledPPOLoss(Loss):", "    pass")
    assert (
        found(camel, added("fw/actor.py", "    loss = DecoupledPPOLoss()"))["decoupled-ppo"].rel == IMPLEMENTS
    )
    # One word of a name in a function's name says too little: `compute_dapo_like_loss` is not DAPO's.
    other = added("fw/losses.py", "def compute_grpo_style_loss(x):", "    return x")
    assert "grpo" not in found(other, added("fw/actor.py", "    y = compute_grpo_style_loss(x)"))


def test_a_role_class_of_one_common_word_needs_its_framework_or_a_second_signal():
    rm = Method("bt-rm", "Bradley-Terry reward model", ("RewardTrainer", "RewardConfig"))
    linker = CommitLinker([*METHODS, rm], vendored_packages=["trl"])
    own_class = added("fw/rewards.py", "class RewardConfig:")
    own = {lk.key: lk for lk in linker.link("Add configs", [own_class]).links}
    assert own["bt-rm"].rel == MENTIONS and "names a role" in own["bt-rm"].rule
    built_on = added(
        "fw/trainers/rm.py", "from trl import (", "    RewardTrainer,", ")", "class RM(RewardTrainer):"
    )
    found = {lk.key: lk for lk in linker.link("Add configs", [built_on]).links}
    assert found["bt-rm"].rel == IMPLEMENTS
    # `GRPOTrainer` carries the method's own name: no framework or second signal needed.
    assert links("x", added("fw/a.py", "class GRPOTrainer:"))[("Method", "grpo")].rel == IMPLEMENTS


def test_a_todo_beside_an_option_documents_nothing():
    dapo_doc = added("fw/config.py", '    algorithm: str = "ppo"  # TODO: support dapo later')
    assert links("Add configs", dapo_doc)[("Method", "dapo")].rel == MENTIONS
    documented = added("fw/config.py", '    algorithm: str = "ppo"  # ppo or dapo (clip-higher)')
    assert links("Add configs", documented)[("Method", "dapo")].rel == IMPLEMENTS


def test_a_spelling_two_methods_share_names_both_and_teaches_neither():
    reinforce = Method("reinforce", "REINFORCE", ("REINFORCE",), ("REINFORCE",))
    reinforce_pp = Method("reinforce-pp", "REINFORCE++", ("REINFORCE++", "reinforce"), ("reinforce",),
                          change_detail="advantages normalised over the global batch")  # fmt: skip
    linker = CommitLinker([*METHODS, reinforce, reinforce_pp])
    named = {m.slug for m in linker.matcher.find("reinforce trainer that runs")}
    assert named == {"reinforce", "reinforce-pp"}
    module = added("fw/trainer/reinforce.py", "class ReinforceConfig:", "    lr: float = 1e-6", status="A")
    script = added("scripts/train.py", "from fw.trainer.reinforce import ReinforceConfig")
    found = {lk.key: lk for lk in linker.link("reinforce trainer that runs", [module, script]).links}
    assert found["reinforce"].rel == IMPLEMENTS and found["reinforce"].rule.startswith("new-file")
    assert not any(lk.rel == "SPELLS" for lk in found.values())
    # "REINFORCE" in the subject is REINFORCE's own name: an option describing REINFORCE++ (its
    # batch normalisation) in the same change is not learned as REINFORCE++'s spelling.
    batch = added("fw/trainer/reinforce.py", "class ReinforceRolloutBatch:", status="A")
    found = {lk.key: lk for lk in linker.link("feat: adds REINFORCE algorithm", [batch, script]).links}
    assert found["reinforce-pp"].rel == MENTIONS


def test_a_whole_repository_copied_in_is_vendored_with_its_recipes():
    linker = CommitLinker(METHODS, vendored_packages=["otherfw"])
    fork = [
        added("setup.py", "setup(name='otherfw')", status="A"),
        added("otherfw/__init__.py", "", status="A"),
        added("otherfw/trainer/kto_trainer.py", "class KTOTrainer:", status="A"),
        added("recipe/prime/main.py", "x = 1", status="A"),
    ]
    found = {lk.key: lk for lk in linker.link("Init", fork).links}
    assert found["prime"].vendored == "otherfw" and found["kto"].vendored == "otherfw"
    # With a package of its own beside the copy, only the copied package is the copy.
    own = [*fork, added("myfw/__init__.py", "", status="A")]
    found = {lk.key: lk for lk in linker.link("Init", own).links}
    assert found["kto"].vendored == "otherfw" and not found["prime"].vendored


def test_a_new_package_exporting_modules_it_lacks_wires_nothing():
    """A new package's `__init__.py` cut from a larger project still imports trainers the change
    does not bring: the import and its export name code that is not there."""
    init = added(
        "fw/trainer/__init__.py",
        "from .kto_trainer import KTOTrainer",
        "from .ppo_trainer import Runner",
        "__all__ = [",
        '    "KTOTrainer",',
        "]",
        status="A",
    )
    change = [init, added("fw/trainer/ppo_trainer.py", "class Runner:", "    pass", status="A")]
    assert ("Method", "kto") not in links("Initial import", *change)
    # With the module in the change, the same import wires it in.
    with_module = [*change, added("fw/trainer/kto_trainer.py", "class KTOTrainer:", "    pass", status="A")]
    assert links("Initial import", *with_module)[("Method", "kto")].rel == IMPLEMENTS
    # An `__init__.py` that already existed may import a module added long before.
    edited = added("fw/trainer/__init__.py", "from .kto_trainer import KTOTrainer", status="M")
    assert links("Export the trainer", edited)[("Method", "kto")].rel == IMPLEMENTS


@pytest.mark.parametrize(
    ("above", "in_place", "copied"),
    [
        ("mine", False, True),  # a package of this repository: the copy still imports itself from the top
        ("mine", True, False),  # the change also imports it where it is: it is used in place
        ("src", False, False),  # a source root: that is how a package there imports itself
        ("project", False, False),  # a project folder run on its own
    ],
)
def test_a_package_copied_into_a_package_keeps_its_top_level_imports(above, in_place, copied):
    """Another project's package copied into one of this repository's packages still imports
    itself as a top-level package, so its code is that project's, catalogued or not. A file that
    also imports it in place (a fallback) is this repository's."""
    fallback = ["except ImportError:", "    from mine.tool.model import Net"] if in_place else []
    change = [
        added(f"{above}/tool/__init__.py", "", status="A"),
        added(f"{above}/tool/model.py", "class Net:", "    pass", status="A"),
        added(
            f"{above}/tool/train/kto.py",
            "try:",
            "    from tool.model import Net",
            *fallback,
            "class KTOTrainer:",
            "    pass",
            status="A",
        ),
        added(
            f"{above}/tool/cli.py",
            f"from {'mine.' if in_place else ''}tool.train.kto import KTOTrainer",
            'if __name__ == "__main__":',
            "    KTOTrainer()",
            status="A",
        ),
    ]
    if above == "mine":
        change.append(added("mine/__init__.py", "", status="A"))
    found = {lk.key: lk for lk in LINKER.link("Init", change).links}
    assert found["kto"].rel == IMPLEMENTS
    assert found["kto"].vendored == ("tool" if copied else "")


@pytest.mark.parametrize(
    ("message", "variant_implemented"),
    [
        ("Add the Dr. GRPO loss (#12)", True),
        ("fix: Dr. GRPO loss", False),  # upkeep adds no spelling
        ("Add GRPO and Dr. GRPO", False),  # the parent is named too: its identifier is its own
        ("Add a new estimator", False),
    ],
)
def test_a_variant_the_subject_names_may_be_spelled_as_its_parent(message, variant_implemented):
    """A framework may select a variant with its parent's name (`"grpo"` for Dr. GRPO): when the
    subject names only the variant and the change adds the parent's identifier, both are there."""
    found = LINKER.link(message, [added("fw/advantages.py", '    if self.estimator == "grpo":')]).links
    implements = {lk.key for lk in found if lk.rel == IMPLEMENTS}
    assert "grpo" in implements
    assert ("dr-grpo" in implements) == variant_implemented
    spells = [lk for lk in found if lk.rel == "SPELLS" and lk.key == "dr-grpo"]
    assert [lk.identifier for lk in spells] == (["grpo"] if variant_implemented else [])


def test_a_name_inside_a_link_is_not_the_message_naming_the_method():
    """`PRIME` is ambiguous: the message must name it, and a repository's path in a link does not."""
    diff = added("fw/reward/prime.py", 'if __name__ == "__main__":', status="A")
    linked = links("Add a stronger verifier\n\nas used in https://github.com/PRIME-RL/PRIME", diff)
    assert linked[("Method", "prime")].rel == MENTIONS
    named = links("Add the PRIME reward model\n\nsee https://github.com/PRIME-RL/PRIME", diff)
    assert named[("Method", "prime")].rel == IMPLEMENTS


def test_a_key_only_one_method_sets_names_it_where_the_message_does():
    """`importance_sampling_level=self.importance_sampling_level` passes GSPO's key on with the
    user's value: with the message naming the method, the change implements it."""
    passed = added("fw/loss.py", "    loss = compute(scale_rewards=self.scale_rewards)")
    named = links("Support Lite PPO in the loss", passed)[("Method", "lite-ppo")]
    assert (named.rel, named.rule, named.identifier) == (IMPLEMENTS, "message-and-code", "scale_rewards")
    assert ("Method", "lite-ppo") not in links("Refactor the loss", passed)  # the key alone says nothing
    # A body lists what a pull request touched; the subject says what the change is for.
    in_body = links("Refactor the loss\n\nKeeps Lite PPO working", passed)[("Method", "lite-ppo")]
    assert (in_body.rel, in_body.rule) == (MENTIONS, "commit-message")
    shared = CommitLinker(
        [Method("aaa", "AAA", ("loss_type=aaa",)), Method("bbb", "BBB", ("loss_type=bbb",))]
    )
    found = shared.link("Support AAA", [added("fw/loss.py", "    loss = f(loss_type=self.loss_type)")]).links
    assert not [lk for lk in found if lk.rel == IMPLEMENTS]  # two methods' key: the value decides


def test_a_bare_word_still_counts_after_a_key_of_the_same_method():
    """A setting's key kept first does not hide a bare use of the method's word later in the change:
    the word needs the message to name the method anywhere, as it always did."""
    linker = CommitLinker([Method("gspo", "GSPO", ("GSPO", "gspo", "importance_sampling_level=sequence"))])
    diff = added(
        "fw/loss.py", "    f(importance_sampling_level=self.importance_sampling_level)", "    x = gspo"
    )
    found = {lk.key: lk for lk in linker.link("Refactor the loss\n\nKeeps GSPO working", [diff]).links}
    assert (found["gspo"].rel, found["gspo"].identifier) == (IMPLEMENTS, "gspo")


@pytest.mark.parametrize(
    ("head", "implements"),
    [("if name in (", True), ("for name in (", False), ("names = [n for n in (", False)],
)
def test_a_literal_a_loop_visits_selects_nothing(head, implements):
    """Testing a value against literals dispatches on it; a loop over literals only visits each
    (`for trainer in ("SFTTrainer", "KTOTrainer"): patch(trainer)`)."""
    tail = "):" if head.startswith(("if", "for")) else ")]"
    found = links("Patch the trainers", added("fw/patch.py", f'{head}"SFTTrainer", "KTOTrainer"{tail}'))
    assert (found[("Method", "kto")].rel == IMPLEMENTS) == implements


@pytest.mark.parametrize(
    "message",
    [
        "Add GRPO (see https://github.com/a/b:c, HTTP://X.Y and arXiv:2402.03300) for PRIME",
        "PRIME-RL https://github.com/PRIME-RL/PRIME?x=arxiv:1 and ARXIV:2501.1",
        "a:b http:/not-a-link xhttps://inside.word ends: arxiv:",
    ],
)
def test_links_in_a_message_are_blanked_where_they_stand(message):
    linked_at = [(m.start(), m.end()) for m in re.finditer(r"(?i)https?://\S+|arxiv:\S+", message)]
    blanked = _unlinked(message)
    assert len(blanked) == len(message) and linked_at
    for start, end in linked_at:
        assert blanked[start:end].isspace()
    outside = [i for i in range(len(message)) if not any(s <= i < e for s, e in linked_at)]
    assert all(blanked[i] == message[i] for i in outside)


def _doc(*lines: str) -> FileDiff:
    return added("docs/algorithms.md", *lines, status="A", start=1)


@pytest.mark.parametrize(
    ("doc", "code", "implemented"),
    [
        # A bullet for a new config key, whose indented paragraph names the method.
        (
            _doc("* `algorithm.dapo_clip_upper` (experimental)", "", "  Raises the upper bound, as in DAPO."),
            added("fw/config/algo.yaml", "  dapo_clip_upper: 0.28"),
            {"dapo"},
        ),
        # The same entry, but the change adds no such option: the docs only describe.
        (
            _doc("* `algorithm.dapo_clip_upper` (experimental)", "", "  Raises the upper bound, as in DAPO."),
            added("fw/config/algo.yaml", "  other_key: 1"),
            set(),
        ),
        # An entry naming two methods pins neither.
        (
            _doc("- ``dapo_clip_upper``: DAPO's bound; compare KTO."),
            added("fw/config/algo.yaml", "  dapo_clip_upper: 0.28"),
            set(),
        ),
        # A value documented as a variant of the method it is named after stands for the variant.
        (
            _doc(
                "- ``grpo``: group advantages (`GRPO <https://arxiv.org/abs/2402.03300>`_),",
                "  the Dr. GRPO variant",
            ),
            added("fw/advantages.py", '    if self.estimator == "grpo":'),
            {"grpo", "dr-grpo"},
        ),
        # A common option named in passing: it neither carries nor describes the method.
        (
            _doc("* `reset`: clears the buffer between steps, as DAPO does."),
            added("fw/config/algo.yaml", "  reset: true"),
            set(),
        ),
        # A plan in the entry documents nothing yet.
        (
            _doc("- ``dapo_clip_upper``: 0.2 for now; DAPO's bound will be supported in the future."),
            added("fw/config/algo.yaml", "  dapo_clip_upper: 0.28"),
            set(),
        ),
        # Prose after the list is not the entry's.
        (
            _doc("- ``dapo_clip_upper``: the upper bound.", "", "DAPO raises it."),
            added("fw/config/algo.yaml", "  dapo_clip_upper: 0.28"),
            set(),
        ),
    ],
)
def test_an_option_documented_as_a_method_in_the_change_docs_implements_it(doc, code, implemented):
    found = links("Add an option", doc, code)
    assert {key for (label, key), lk in found.items() if lk.rel == IMPLEMENTS} == implemented
    for slug in implemented - {"grpo"}:
        assert found[("Method", slug)].rule.startswith("doc-entry; docs/algorithms.md:")


def replace_path(f: FileDiff, path: str) -> FileDiff:
    return FileDiff(path, f.status, f.old_path, f.added, f.deleted, f.binary, f.text)


def test_a_copied_tree_documents_the_copy_not_the_framework():
    linker = CommitLinker(METHODS, vendored_packages=["otherfw"])
    doc = added(
        "third/otherfw/docs/algorithms.md", "* `dapo_clip_upper`: the upper bound of DAPO.", status="A"
    )
    code = added("third/otherfw/config/algo.yaml", "  dapo_clip_upper: 0.28", status="A")
    found = {lk.key: lk for lk in linker.link("Add a copy", [doc, code]).links}
    assert "dapo" not in found or found["dapo"].rel != IMPLEMENTS or found["dapo"].vendored
    mine = [replace_path(doc, "docs/a.md"), replace_path(code, "fw/config/algo.yaml")]
    own = {lk.key: lk for lk in linker.link("Add", mine).links}
    assert own["dapo"].rel == IMPLEMENTS and own["dapo"].rule.startswith("doc-entry")


def test_documentation_repeating_a_role_class_is_no_second_signal():
    """A generic role class (`RewardConfig`) needs a second signal; the change's docs naming the
    same class again are not one, while docs naming the method some other way are."""
    bt = Method("bt-rm", "Bradley-Terry reward model", ("RewardConfig", "Bradley-Terry reward model"))
    linker = CommitLinker([*METHODS, bt])
    code = added(
        "fw/config/reward.py", "class RewardConfig(BaseModel):", "    scale: float = 1.0", status="A"
    )
    same_word = added("docs/reward.md", "Set `RewardConfig.scale` to weigh the aesthetic score.")
    found = {lk.key: lk for lk in linker.link("Support a world model (#4)", [code, same_word]).links}
    assert found["bt-rm"].rel == MENTIONS and "without a second signal" in found["bt-rm"].rule
    named = added("docs/reward.md", "The Bradley-Terry reward model is trained on preference pairs.")
    found = {lk.key: lk for lk in linker.link("Support reward models (#4)", [code, named]).links}
    assert found["bt-rm"].rel == IMPLEMENTS and found["bt-rm"].rule.endswith(
        "the change's documentation names it"
    )


def test_a_method_written_with_hyphens_or_a_dot_documents_the_option_beside_it():
    """Help texts write names as one hyphenated or dotted word ("dual-clip", "Dr.GRPO")."""
    catalog = read_catalog().methods
    linker = CommitLinker([catalog["dual-clip"], catalog["dr-grpo"], catalog["grpo"]])
    config = added(
        "fw/policy/config.py",
        "    lower_bound_ratio: float = field(",
        "        default=3.0,",
        '        metadata={"help": "Lower-bound ratio for dual-clip."},',
        "    )",
        "    unbiased_loss_max_tokens: Optional[int] = field(",
        "        default=None,",
        '        metadata={"help": "Tokens for the unbiased loss introduced in Dr.GRPO."},',
        "    )",
    )
    found = {lk.key: lk for lk in linker.link("Initial release", [config]).links}
    assert (found["dual-clip"].rel, found["dual-clip"].identifier) == (IMPLEMENTS, "lower_bound_ratio")
    assert (found["dr-grpo"].rel, found["dr-grpo"].identifier) == (IMPLEMENTS, "unbiased_loss_max_tokens")


def test_prose_citing_a_method_for_another_term_documents_no_option():
    """A clipping or KL option beside prose that cites an advantage method cites a detail of its
    paper; the nearest entry is the one documented."""
    config = added(
        "fw/rl/config.py",
        "class RLConfig(BaseModel):",
        '    epsilon: float = Field(default=0.2, description="Clip parameter")',
        "    reward_minus_kl_coef: float = Field(",
        "        default=0.0,",
        "        # https://arxiv.org/abs/2402.14740",
        '        description="Implicit KL coefficient similar to the RLOO paper",',
        "    )",
        status="A",
    )
    catalog = read_catalog().methods
    linker = CommitLinker([catalog["rloo"], catalog["dapo"], catalog["grpo"]])
    found = {lk.key: lk for lk in linker.link("Initial commit", [config]).links if lk.label == "Method"}
    assert found["rloo"].rel == MENTIONS
    mask = added(
        "fw/rl/config.py",
        '    epsilon: float = Field(default=0.2, description="Clip parameter")',
        '    mask_truncated: bool = Field(default=False, description="Overlong filtering, as in DAPO")',
    )
    dapo = next(lk for lk in linker.link("Add options", [mask]).links if lk.key == "dapo")
    assert (dapo.rel, dapo.identifier) == (IMPLEMENTS, "mask_truncated")


def test_a_comment_about_a_future_trainer_is_a_plan():
    diff = added(
        "fw/gym/policy.py",
        "    hidden_dim: int = 64",
        "    # A value head, so a future PPO trainer can plug in later.",
        "    value_head = nn.Linear(config.hidden_dim, 1)",
    )
    linker = CommitLinker([read_catalog().methods["ppo"]])
    found = next(lk for lk in linker.link("Add a toy gym policy", [diff]).links if lk.key == "ppo")
    assert (found.rel, found.rule) == (MENTIONS, "todo")


def test_a_flag_whose_call_opens_on_the_line_above_is_documented_by_its_help():
    """`parser.add_argument(` on one line and the flag on the next: the help names the method."""
    dual = Method("dual-clip", "Dual-clip PPO", ("c_clip",), arxiv_id="1912.09729")
    linker = CommitLinker([*METHODS, dual])
    diff = added(
        "fw/arguments.py",
        "        parser.add_argument(",
        '            "--lower-bound-c",',
        "            type=float,",
        '            help="lower bound for Dual-clip PPO, https://arxiv.org/pdf/1912.09729",',
        "        )",
        '        parser.add_argument("--kl-coef", type=float, default=0.01, help="KL penalty")',
    )
    found = {lk.key: lk for lk in linker.link("Add options", [diff]).links}
    assert (found["dual-clip"].rel, found["dual-clip"].identifier) == (IMPLEMENTS, "--lower-bound-c")


def test_an_attribute_docstring_under_an_unchanged_line_documents_no_new_option():
    """A docstring added under an attribute the change does not touch documents that attribute,
    not the new one below it."""
    text = "\n".join([
        "@@ -13,0 +14,1 @@", '+    """Overlong filtering, as in DAPO."""',
        "@@ -14,0 +16,1 @@", '+    loss_avg_mode: str = "token"',
    ])  # fmt: skip
    unchanged_above = FileDiff("fw/config.py", "M", text=text)
    assert cited_links(unchanged_above)["dapo"].rel == MENTIONS


def test_a_class_docstring_documents_the_class_not_its_first_field():
    """A leftover header of a copied argument class ("The arguments for the DPO training script")
    says whose script it was; the fields under it are not documented as that method."""
    header = added(
        "eval.py", "@dataclass", "class ScriptArguments:", '    """',
        "    The arguments for the DAPO script.", '    """', '    json_path: str = ""',
    )  # fmt: skip
    assert cited_links(header)["dapo"].rel == MENTIONS
    # A field's own docstring, in the same class, still documents it.
    own = added("fw/config.py", "class Config:", '    """Settings."""', "    mask_truncated: bool = False",
                '    """Overlong filtering, as in DAPO."""')  # fmt: skip
    assert cited_links(own)["dapo"].rel == IMPLEMENTS


def test_a_paper_that_also_brings_a_variant_is_cited_for_its_method():
    """REINFORCE++'s paper also describes REINFORCE++-baseline: an option documented by the link
    alone is the paper's own method's; the variant needs its own name."""
    linker = CommitLinker([
        Method("reinforce-pp", "REINFORCE++", ("REINFORCE++",), arxiv_id="2501.03262"),
        Method("reinforce-pp-baseline", "REINFORCE++-baseline", ("reinforce_plus_plus_baseline",),
               arxiv_id="2501.03262", parent="reinforce-pp"),
    ])  # fmt: skip
    loss = added(
        "fw/core.py", "def advantage(rewards, mask,", "              gamma: float):", '    """',
        "    Advantage, as in the paper: https://arxiv.org/abs/2501.03262", '    """',
    )  # fmt: skip
    config = added("fw/config.yaml", "  gamma: 1.0")
    found = {
        lk.key: lk for lk in linker.link("Add advantage (#9)", [loss, config]).links if lk.label == "Method"
    }
    assert found["reinforce-pp"].rel == IMPLEMENTS
    assert "reinforce-pp-baseline" not in found


def test_a_key_read_from_the_configuration_with_a_default_is_an_option_prose_documents():
    """`cfg.get("disable_ppo_ratio", False)` is a setting users have; the docstring naming it with
    the method's paper documents it. A key read from any other dict is not an option."""
    rloo = Method("rloo", "RLOO", ("RLOO",), arxiv_id="2402.14740")
    linker = CommitLinker([*METHODS, rloo])
    loss = added(
        "fw/algorithms/loss.py",
        "class PGLoss:",
        '    """REINFORCE/RLOO (set disable_ppo_ratio = True) - https://arxiv.org/abs/2402.14740"""',
        "    def __init__(self, cfg):",
        '        self.disable_ppo_ratio = cfg.get("disable_ppo_ratio", False)',
        status="A",
    )
    found = {lk.key: lk for lk in linker.link("Add the loss", [loss]).links}
    assert (found["rloo"].rel, found["rloo"].identifier) == (IMPLEMENTS, "disable_ppo_ratio")
    batch = added(
        "fw/algorithms/loss.py",
        "class PGLoss:",
        '    """REINFORCE/RLOO (set disable_ppo_ratio = True) - https://arxiv.org/abs/2402.14740"""',
        "    def __call__(self, batch):",
        '        mask = batch.get("disable_ppo_ratio", None)',
        status="A",
    )
    found = {lk.key: lk for lk in linker.link("Add the loss", [batch]).links}
    assert found["rloo"].rel == MENTIONS


def test_a_word_of_the_frameworks_own_name_is_no_second_signal_in_its_history():
    """prime-rl's messages say "prime" of their own tooling; elsewhere "PRIME" names the method."""
    prime = Method("prime", "PRIME", ("PRIME", "prime"), ("PRIME", "prime"), "2502.01456")
    diff = added("fw/config.py", '    if estimator == "prime":')
    for framework, rel in [("prime-rl", MENTIONS), ("otherfw", IMPLEMENTS)]:
        linker = CommitLinker([*METHODS, prime], framework=framework)
        found = {lk.key: lk for lk in linker.link("Add the PRIME algorithm", [diff]).links}
        assert found["prime"].rel == rel


def test_a_method_named_without_what_it_ships_with_is_only_mentioned():
    """PPO trains a value function: a PPO-named actor in a change with no critic is a name alone."""
    ppo = Method("ppo", "PPO", ("PPO", "PPOTrainer"), shipped_with=r"\bcritic\b|value[_ ]?head")
    linker = CommitLinker([*METHODS, ppo])
    actor = added("fw/ppo_actor.py", "class PPOTrainer:", "    def step(self, batch):", status="A")
    run = added("fw/train.py", "from fw.ppo_actor import PPOTrainer", "PPOTrainer().step(batch)")
    alone = {lk.key: lk for lk in linker.link("Add the actor", [actor, run]).links}["ppo"]
    assert alone.rel == MENTIONS and alone.rule.endswith("nothing it ships with in the change")
    critic = added("fw/critic.py", "class Critic:", "    value_head = None", status="A")
    shipped = {lk.key: lk for lk in linker.link("Add the actor", [actor, run, critic]).links}["ppo"]
    assert shipped.rel == IMPLEMENTS and shipped.rule == "class-def"


@pytest.mark.parametrize(
    ("lines", "implements"),
    [
        (["    elif est in [AE.GRPO, AE.GRPO_PASSK, AE.REMAX]:"], False),
        (["    elif est in [", "      AE.GRPO,", "      AE.GRPO_PASSK,", "      AE.REMAX,", "    ]:"], False),
        (["    elif est == AE.GRPO_PASSK:"], True),
        (["    elif est in (AE.GRPO, AE.GRPO_PASSK):"], True),
        (["    for est in [AE.GRPO, AE.GRPO_PASSK, AE.REMAX]:"], True),
    ],
)
def test_one_name_among_many_tested_for_membership_selects_nothing(lines, implements):
    """`est in [A, B, C]` sorts values (which need a critic, which are allowed); a comparison, a
    pair handled alike, or a loop naming it still counts."""
    linker = CommitLinker([read_catalog().methods["grpo-passk"]])
    found = {lk.key: lk for lk in linker.link("Trainer", [added("fw/trainer.py", *lines)]).links}
    assert (found["grpo-passk"].rel == IMPLEMENTS) == implements
    if not implements:
        assert found["grpo-passk"].rule == "listed"


@pytest.mark.parametrize(
    ("path", "line", "own"),
    [
        ("ownfw/trainer/config/ppo.yaml", "  epsilon_high: null", False),
        ("ownfw/trainer/config/ppo.yaml", "  epsilon_high: 0.28  # clip higher", True),
        ("ownfw/trainer/config/ppo.yaml", "  loss_type: dapo", True),
        ("ownfw/trainer/config/algo.py", "    epsilon_high: Optional[float] = None", False),
        ("ownfw/trainer/config/algo.py", "    epsilon_high: dict = field(default_factory=dict)", False),
        ("ownfw/trainer/config/algo.py", "    epsilon_high: float = 0.28", True),
        ("ownfw/config/ppo.yaml", "  epsilon_high: null", True),
    ],
)
def test_a_config_copied_from_a_vendored_framework_turns_on_only_what_it_sets(path, line, own):
    """A wrapper's own copy of the config of the framework it vendors (the same path ending) lists
    that framework's options: one it leaves off is the copy's; a value it turns on is its own."""
    linker = CommitLinker(
        METHODS,
        vendored_packages=["otherfw"],
        copied_configs=["otherfw/otherfw/trainer/config/ppo.yaml", "otherfw/otherfw/trainer/config/algo.py"],
    )
    found = {lk.key: lk for lk in linker.link("Config", [added(path, line)]).links}
    assert found["dapo"].rel == IMPLEMENTS
    assert found["dapo"].vendored == ("" if own else "otherfw")
