"""Proposed methods and per-paper features: pure functions on composed text."""

from __future__ import annotations

import pytest
from catalog_entries import method, org
from uptake.loaders.link.paper_features import OrganizationMatcher, extract_features, policy_sizes
from uptake.loaders.link.proposals import ProposalFinder, looks_like_method_name

METHODS = [
    method("ppo", "PPO", ("PPO", "ppo", "PPOTrainer"), "1707.06347"),
    method("grpo", "GRPO", ("GRPO", "grpo"), "2402.03300"),
    method("dapo", "DAPO", ("DAPO", "dapo", "clip_ratio_high"), "2503.14476"),
    method("dr-grpo", "Dr. GRPO", ("Dr. GRPO", "DrGRPO", "dr_grpo"), "2503.20783"),
    method("gspo", "GSPO", ("GSPO", "gspo"), "2507.18071"),
    method("prime", "PRIME", ("PRIME", "prime"), "2502.01456", ("PRIME", "prime")),
    method("sapo", "SAPO", ("SAPO", "sapo"), "2511.20347", ("SAPO", "sapo")),
    method("orpo", "ORPO", ("ORPO", "orpo", "ORPOTrainer"), "2403.07691"),
    method("reinforce-pp", "REINFORCE++", ("REINFORCE++", "reinforce_plus_plus"), "2501.03262"),
]
FINDER = ProposalFinder(METHODS)


def _found(title: str, abstract: str = "", arxiv_id: str | None = None) -> list[tuple[str, bool, str]]:
    return [(p.slug, p.known, p.rule) for p in FINDER.find(arxiv_id, title, abstract)]


def test_the_catalog_paper_proposes_its_method():
    assert _found("An Open-Source System at Scale", "", "2503.14476") == [("dapo", True, "catalog-arxiv-id")]


@pytest.mark.parametrize(
    ("title", "abstract", "expected"),
    [
        ("GSPO: Sequence Ratios", "", [("gspo", True, "title-name")]),
        ("Dr. GRPO: Understanding Zero Training", "", [("dr-grpo", True, "title-name")]),
        ("Sequence Policy Optimization (GSPO) for MoE", "", [("gspo", True, "title-acronym")]),
        (
            "A Title",
            "We propose PRIME, a method with implicit process rewards.",
            [("prime", True, "we-propose")],
        ),
        ("A Title", "We introduce REINFORCE++, an enhanced variant.", [("reinforce-pp", True, "we-propose")]),
        (
            "A Title",
            "We propose a simple method called TreeRL for credit.",
            [("treerl", False, "we-propose")],
        ),
        ("A Title", "SPARK, a new reweighting rule for policy gradient.", [("spark", False, "apposition")]),
        ("C3PO++: Rollouts at Scale", "", [("c3po-pp", False, "title-name")]),
    ],
)
def test_proposed_names_are_found_and_matched_to_the_catalog(title, abstract, expected):
    assert _found(title, abstract) == expected


@pytest.mark.parametrize(
    "abstract",
    [
        "This is a prime example of reward hacking; we propose a new objective.",  # PRIME as a word
        "We report results with sapo as the reference solver.",  # SAPO lower case, other meaning
        "We propose an ORPO-like objective that needs no reference model.",  # a family, not the method
        "We propose a new clipping rule for GSPO that improves stability.",  # builds on GSPO
        "We compare against PPO, GRPO and DAPO under equal compute.",  # mentions only
        "Building on Proximal Policy Optimization (PPO), we study clipping.",  # cites PPO
        "We propose to replace the PPOTrainer loop with a leaner one.",  # PPO inside an identifier
    ],
)
def test_mentions_common_words_and_longer_words_are_not_proposals(abstract):
    assert _found("A Neutral Title", abstract) == []


def test_ppo_inside_other_names_is_a_different_method():
    assert _found("A Title", "We propose MAPPO, a multi-agent variant.") == [("mappo", False, "we-propose")]
    assert not looks_like_method_name("ORPO-like") and not looks_like_method_name("LLMs")


@pytest.mark.parametrize(
    ("text", "largest"),
    [
        ("We train Qwen2.5-7B and Qwen2.5-72B with our method.", 72.0),
        ("Experiments on a 671B MoE model and a 32B dense model.", 671.0),
        ("Scaling to Qwen3-235B-A22B shows the same trend.", 235.0),
        ("A 1T-parameter model trained on 15T tokens.", 1000.0),
        ("We train an 8 billion parameter policy with a 70B reward model.", 8.0),
        ("Llama-3.1-8B-Instruct improves by 5 points.", 8.0),
        ("We use 2B tokens of math data and no model size is given.", None),
    ],
)
def test_largest_trained_policy_size(text, largest):
    assert extract_features("T", text).max_policy_params_b == largest


def test_sizes_record_the_words_they_came_from():
    assert {w for _, w in policy_sizes("On DeepSeek-V3-671B.")} == {"671B"}


def test_loss_changes_and_whether_an_existing_loss_is_changed():
    f = extract_features(
        "Asymmetric Clipping",
        "We raise the upper clip bound of the PPO surrogate and mask truncated responses, "
        "with a token weighting scheme.",
    )
    assert f.loss_changes == ("clip", "mask", "weight") and f.changes_existing_loss
    new = extract_features("A New Objective", "We derive a new objective from game theory.")
    assert new.loss_changes == () and not new.changes_existing_loss


def test_code_url_from_abstract_or_comment():
    assert extract_features("T", "Code: https://github.com/example/proj.").code_url == (
        "https://github.com/example/proj"
    )
    assert extract_features("T", "no link", "Project at https://huggingface.co/org/model").code_url == (
        "https://huggingface.co/org/model"
    )
    assert extract_features("T", "no link").code_url is None


def test_organisations_in_affiliations():
    matcher = OrganizationMatcher(
        [org("bytedance", "ByteDance"), org("nvidia", "NVIDIA"), org("meta", "Meta")]
    )
    found = matcher.find(
        ["ByteDance Seed, Beijing", "Nvidia Corporation", "Metallurgy Dept., Some University"]
    )
    assert [(o.slug, o.words) for o in found] == [("bytedance", "ByteDance"), ("nvidia", "Nvidia")]


CASE_METHODS = [
    method("vapo", "VAPO", ("VAPO", "vapo"), "2504.05118"),
    method("remax", "ReMax", ("ReMax", "remax"), "2310.10505"),
    method("reinforce-pp", "REINFORCE++", ("REINFORCE++",), "2501.03262"),
    method("sdpo", "SDPO", ("SDPO", "sdpo"), "2601.20802"),
    method("apo", "APO", ("apo_zero",), "2408.06266"),
]
CASE_FINDER = ProposalFinder(CASE_METHODS)


def _named(title: str, arxiv_id: str | None = None) -> list[tuple[str, bool, str]]:
    return [(p.slug, p.known, p.kind) for p in CASE_FINDER.find(arxiv_id, title)]


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Vapo: Value-Based Augmented Proximal Policy Optimization", [("vapo", True, "method")]),
        ("Remax: A Simple and Efficient Method for Aligning Models", [("remax", True, "method")]),
        ("Reinforce++: A Simple and Efficient Approach", [("reinforce-pp", True, "method")]),
        # a lower-case prefix is part of the name: sDPO is not the catalog's SDPO
        ("sDPO: Don't Use Your Data All at Once", [("s-dpo", False, "method")]),
        ("Seed-grpo: Semantic Entropy Enhanced GRPO", [("seed-grpo", False, "method")]),
    ],
)
def test_case_and_spelling_variants_are_one_name_but_a_case_prefix_is_another(title, expected):
    assert _named(title) == expected


def test_the_arxiv_id_says_when_a_case_variant_is_the_catalog_method():
    found = CASE_FINDER.find("2601.20802", "sDPO: Self-Distillation Policy Optimization")
    assert [(p.slug, p.rule) for p in found] == [("sdpo", "catalog-arxiv-id")]


def test_a_catalog_acronym_proposed_under_another_arxiv_id_is_another_method():
    found = CASE_FINDER.find("2506.00001", "APO: Reasoning via Asymmetric Policy Optimization")
    assert [(p.slug, p.known, p.long_name) for p in found] == [
        ("asymmetric-policy-optimization", False, "Asymmetric Policy Optimization")
    ]


def test_several_names_and_spelled_out_names_in_one_title():
    assert [p.slug for p in CASE_FINDER.find(None, "Clip-Low and Clip-High: Two Rules for Entropy")] == [
        "clip-low",
        "clip-high",
    ]
    spelled = CASE_FINDER.find(None, "Group Expectation Policy Optimization for Stable RL in LLMs")
    assert [(p.name, p.rule) for p in spelled] == [
        ("Group Expectation Policy Optimization", "title-long-name")
    ]
    # the sentence around a name is not part of it, and baselines spelled out are not proposals
    assert CASE_FINDER.find(None, "Beyond Proximal Clipping: A Study") == []
    assert CASE_FINDER.find(None, "Group Relative Policy Optimization for Code") == []


def test_a_proposed_long_name_gives_the_short_name_in_parentheses():
    abstract = (
        "Rewards are sparse. We introduce Step-Wise Trust Region Tuning (SWTRT), which clips each step."
    )
    found = [(p.name, p.long_name, p.rule) for p in CASE_FINDER.find(None, "A Study of Steps", abstract)]
    assert found == [("SWTRT", "Step-Wise Trust Region Tuning", "we-propose")]
    # Parentheses that do not abbreviate the words before them name nothing.
    other = "We propose Step-Wise Trust Region Tuning (see the appendix), which clips each step."
    assert "see" not in [p.name for p in CASE_FINDER.find(None, "A Study of Steps", other)]


@pytest.mark.parametrize(
    ("abstract", "name", "long_name"),
    [
        # The name a sentence calls its proposal, after a description with clause words in it.
        (
            "We introduce a novel critic-free, policy-gradient based RL algorithm called zeta-GRPO.",
            "zeta-GRPO",
            None,
        ),
        # A spelled-out name and its short form after ", or".
        (
            "We develop Meta Trust Fine-Tuning, or MTT, a new class of methods.",
            "MTT",
            "Meta Trust Fine-Tuning",
        ),
        # A noun phrase closed by the name in parentheses, spelled out or not.
        ("In this paper, we introduce a novel PSRL framework (FocusRL), which explores.", "FocusRL", None),
        ("We introduce reinforcement learning with outcome feedback (RLOF), a method.", "RLOF", None),
        # A second verb of a sentence that began with "we", after a first proposal of no name.
        ("We propose a unified view of these methods and introduce Prefix-XT, a hybrid.", "Prefix-XT", None),
        # A capitalised run ending in a method head noun is one name, not its first hyphenated word.
        ("We propose Long-Short Memory Sampling to balance history.", "Long-Short Memory Sampling", None),
        # Capitalised words a sentence calls its proposal, and their short form when it follows.
        (
            "We propose a new RLVR paradigm called Absolute Nil, in which one model learns.",
            "Absolute Nil",
            None,
        ),
        (
            "We propose an algorithm called Retro Replay Learning (RRL) for exploration.",
            "RRL",
            "Retro Replay Learning",
        ),
        # The answer a paper offers without a proposing verb.
        (
            "We address this challenge with Diversity-Aware Policy Optimization (DAPX), a loss.",
            "DAPX",
            "Diversity-Aware Policy Optimization",
        ),
        (
            "Our framework, Mass-Covering Hybrid RL (MCH-RL), keeps diversity.",
            "MCH-RL",
            "Mass-Covering Hybrid RL",
        ),
        # TeX markup an arXiv abstract keeps, inside math too.
        (
            "We propose the $\\textbf{D}$ecoupled $\\textbf{Z}$ero $\\textbf{P}$olicy "
            "$\\textbf{O}$ptimization ($\\textbf{DZPO}$) algorithm.",
            "DZPO",
            "Decoupled Zero Policy Optimization",
        ),
        ("We propose the \\textbf{ZAPO} algorithm for long reasoning.", "ZAPO", None),
    ],
)
def test_how_an_abstract_names_what_it_proposes(abstract, name, long_name):
    found = [(p.name, p.long_name) for p in CASE_FINDER.find(None, "A Study of Training", abstract)]
    assert found == [(name, long_name)]


def test_an_abstract_calling_the_title_name_a_method_says_what_it_names():
    title = "TXRM: Smooth Reward Models with Temporal Difference"
    assert [p.kind for p in CASE_FINDER.find(None, title)] == ["not-method"]
    abstract = "We introduce TXRM, a method for learning smoother reward models by temporal differences."
    assert [(p.name, p.kind) for p in CASE_FINDER.find(None, title, abstract)] == [("TXRM", "method")]
    longer = "We propose TXRM, a rule-based reinforcement learning (RL) algorithm for audio models."
    assert [(p.name, p.kind) for p in CASE_FINDER.find(None, title, longer)] == [("TXRM", "method")]
    # A framework stays what the title says it is.
    framework = "We introduce TXRM, a framework for serving reward models."
    assert [p.kind for p in CASE_FINDER.find(None, title, framework)] == ["not-method"]


@pytest.mark.parametrize(
    "abstract",
    [
        # Hyphenated words starting a description are no name, nor are the capitals around them.
        "We propose Self-Evolving Search, a search agent that improves over time.",
        "We propose Multi-Agent Collaborative Reasoning for hard problems.",
    ],
)
def test_a_capitalised_description_after_a_proposing_verb_is_not_a_name(abstract):
    assert CASE_FINDER.find(None, "A Study of Training", abstract) == []


def test_an_abstract_proposing_a_spelled_out_method_settles_what_the_title_name_is():
    # "and introduce", the sentence's second verb, proposes as "we introduce" does.
    second_verb = "We formalize the setting and introduce Self-Paced Trust Optimization (SPTO), a loss."
    assert [(p.name, p.kind) for p in CASE_FINDER.find(None, "A Study", second_verb)] == [("SPTO", "method")]
    # A title calling the work a system, an abstract spelling its name out as a method: a method.
    system = "XAPO: An Open-Source LLM Reinforcement Learning System at Scale"
    assert [p.kind for p in CASE_FINDER.find(None, system)] == ["not-method"]
    abstract = "We propose the Xenial Advantage Policy Optimization (XAPO) algorithm and release it."
    assert [(p.name, p.kind) for p in CASE_FINDER.find(None, system, abstract)] == [("XAPO", "method")]
    # The title's spelled-out name and the abstract's acronym for it are one proposal.
    title = "Xenial Advantage Policy Optimization for Reasoning"
    merged = CASE_FINDER.find(None, title, "We then introduce Xenial Advantage Policy Optimization (XAPO).")
    assert [(p.name, p.long_name) for p in merged] == [("XAPO", "Xenial Advantage Policy Optimization")]


def test_a_named_method_title_proposes_that_name_not_the_mechanism_it_spells_out():
    title = "XY-GPO: Balancing Tokens via Gradient-Preserving Sparse Policy Optimization"
    assert [(p.name, p.rule) for p in CASE_FINDER.find(None, title)] == [("XY-GPO", "title-name")]
    # A spelled-out name the acronym fits is the same method, told in full.
    fitting = CASE_FINDER.find(None, "XGPO: Xenial Gradient Policy Optimization for Reasoning")
    assert [(p.name, p.long_name) for p in fitting] == [("XGPO", "Xenial Gradient Policy Optimization")]


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("InfiGUI-G1: Advancing GUI Grounding with Adaptive Exploration", "model"),
        ("R1-Reward: Training a Multimodal Reward Model", "model"),
        ("Qwen-Solver: Efficient Reasoning Models", "model"),  # a model family's name first
        ("VerIPO: A Long Reasoning Video Model with Iterative Training", "not-method"),
        ("ProcessBench: Identifying Process Errors", "benchmark"),
    ],
)
def test_names_of_models_and_benchmarks_are_not_methods(title, kind):
    assert [p.kind for p in CASE_FINDER.find(None, title)] == [kind]


def test_a_new_method_node_needs_a_training_method_and_a_general_method_paper():
    from uptake.loaders.link.proposals import creates_method
    from uptake.loaders.link.screening import screen_paper

    def nodes(title: str) -> list[str]:
        return [p.slug for p in CASE_FINDER.find(None, title) if creates_method(p, screen_paper(title))]

    assert nodes("TreeRPO: Tree Relative Policy Optimization for LLM Reasoning") == ["treerpo"]
    assert nodes("MiroMind-M1: Math Reasoning via Context-Aware Multi-Stage Policy Optimization") == []
    assert nodes("FlowPO: Reinforcement Learning for Text-to-Image Flow Models") == []  # not a language model
