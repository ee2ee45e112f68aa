"""The ad-hoc statement check on real attack strings: refused before any database sees them."""

from __future__ import annotations

import pytest
from uptake.graph.cypher_guard import MAX_NESTING, StatementRefused, check_statement, tokenize

READS = [
    "MATCH (n:Paper) RETURN n.arxiv_id LIMIT 5",
    "MATCH (a)-[*1..3]->(b) RETURN count(*) AS n",
    "OPTIONAL MATCH (m:Method) WHERE m.slug STARTS WITH 'g' RETURN m ORDER BY m.slug SKIP 1 LIMIT 2",
    "UNWIND [1, 2.5, 1e3] AS x WITH x WHERE x > 1 RETURN x UNION RETURN 0 AS x",
    "MATCH (n) WHERE EXISTS { MATCH (n)-->() } RETURN COUNT { MATCH (n)-->() } AS c",
    "CALL { MATCH (n) RETURN n } RETURN n",
    "CALL db.labels()",
    "CALL show_tables() RETURN *",
    "RETURN {set: 1, copy: 2, load: 3} AS m",
    "MATCH (n:Paper) RETURN n.`copy`, n.set",
    "MATCH (m) WHERE m.slug = $slug RETURN m",
    "RETURN 'COPY (RETURN 1) TO \\'/x.csv\\'; CHECKPOINT' AS text",
    'RETURN "a \\" ; LOAD FROM x" AS text',
    "MATCH (n) RETURN n // a comment with COPY and ;\n",
    "MATCH (n) /* CHECKPOINT; */ RETURN n",
    "RETURN date.truncate('month', date('2024-05-17')) AS d, duration.between(date(), date()) AS g",
]


@pytest.mark.parametrize("statement", READS)
def test_read_statements_pass(statement):
    assert check_statement(statement) == statement.rstrip()


def test_a_trailing_semicolon_is_dropped():
    assert check_statement("MATCH (n) RETURN n ;  ") == "MATCH (n) RETURN n"


ATTACKS = {
    "COPY (RETURN 'x' AS x) TO 'out.csv'": "COPY reaches files",
    "COPY (RETURN 'x' AS x) TO 'out.parquet'": "COPY reaches files",
    "cOpY (RETURN 1) TO 'existing.csv.gz'": "COPY reaches files",
    "LOAD FROM '/etc/passwd' (file_format='csv', header=false, delim=':') RETURN *": "LOAD reaches",
    "LOAD CSV FROM 'http://127.0.0.1:9/x' AS row RETURN row": "LOAD reaches",
    "CHECKPOINT": "CHECKPOINT writes storage",
    "checkpoint;": "CHECKPOINT writes storage",
    "SHOW USERS": "SHOW reads server administration",
    "SHOW SETTINGS YIELD name RETURN name": "SHOW reads",
    "SHOW TRANSACTIONS YIELD transactionId TERMINATE TRANSACTIONS transactionId": "SHOW",
    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'": "TERMINATE ends transactions",
    "ATTACH 'other.db' AS o (dbtype lbug)": "ATTACH",
    "DETACH DATABASE o": "DETACH",
    "INSTALL httpfs": "INSTALL loads extensions",
    "EXPORT DATABASE 'dump'": "EXPORT writes files",
    "IMPORT DATABASE 'dump'": "IMPORT reads files",
    "USE system MATCH (n) RETURN n": "USE switches databases",
    "MATCH (n) DETACH DELETE n": "DETACH",
    "MATCH (n) SET n.x = 1": "SET writes the graph",
    "MERGE (n:X)": "MERGE writes the graph",
    "MATCH (n) REMOVE n.x": "REMOVE writes the graph",
    "DROP TABLE Paper": "DROP changes the schema",
    "ALTER TABLE Paper ADD x INT": "ALTER changes the schema",
    "MATCH (n) FOREACH (x IN [1] | SET n.y = x)": "FOREACH",
    "BEGIN TRANSACTION": "BEGIN controls transactions",
    "COMMIT": "COMMIT controls transactions",
    "MATCH (n) RETURN n; MATCH (m) RETURN m": "one statement per request",
    "MATCH (n) RETURN n /* */ ; COPY (RETURN 1) TO 'x.csv'": "COPY reaches files",
    "MATCH (n) RETURN n ;;": "one statement per request",
    "CALL dbms.components()": "CALL dbms.components is not an allowed procedure",
    "CALL `dbms`.`listConfig`()": "CALL dbms.listConfig is not an allowed procedure",
    "CALL threads=4": "CALL threads is not an allowed procedure",
    "CALL { MATCH (n) RETURN n } IN TRANSACTIONS": "TRANSACTIONS controls transactions",
    "RETURN apoc.load.json('http://127.0.0.1:1')": "namespaced function apoc.load.json",
    "RETURN apoc.date.format(1)": "namespaced function apoc.date.format",
    "RETURN 1\u00a0COPY (RETURN 1) TO 'x.csv'": "U+00A0",
    "RETURN 1\u2028": "U+2028",
    "MATCH (n) RETURN n \u037e COPY": "U+037E",
    "RETURN 'unterminated": "unterminated string",
    "RETURN 'a\\' ; COPY (RETURN 1) TO 'x'": "unterminated string",  # the escape keeps the string open
    "RETURN 1 /* unterminated": "unterminated comment",
    "RETURN `unterminated": "unterminated backtick",
    "RETURN (1]": "unbalanced",
    "RETURN [1": "unclosed bracket",
    "THIS IS NOT CYPHER": "a statement starts with",
    "": "empty statement",
    "// only a comment": "empty statement",
}


@pytest.mark.parametrize("statement", ATTACKS)
def test_attacks_are_refused_naming_the_rule(statement):
    with pytest.raises(StatementRefused) as refused:
        check_statement(statement)
    assert ATTACKS[statement] in str(refused.value)
    assert str(refused.value).startswith("refused: ")


def test_nesting_that_crashed_the_parser_is_refused_and_moderate_nesting_passes():
    deep = "RETURN " + "(" * 2100 + "1" + ")" * 2100  # 4,207 characters, as in the crash report
    with pytest.raises(StatementRefused, match=f"deeper than {MAX_NESTING}"):
        check_statement(deep)
    assert check_statement("RETURN " + "(" * MAX_NESTING + "1" + ")" * MAX_NESTING)


def test_length_is_bounded():
    with pytest.raises(StatementRefused, match="limit is 100"):
        check_statement("RETURN " + "1 + " * 40 + "1", max_chars=100)


def test_tokens_keep_strings_identifiers_and_parameters_whole():
    tokens = tokenize("MATCH (n:`odd name`) WHERE n.x = $p AND n.y = 'a;b' RETURN 1.5e3")
    kinds = {(t.kind, t.text) for t in tokens}
    assert ("quoted", "odd name") in kinds and ("param", "$p") in kinds
    assert ("string", "'a;b'") in kinds and ("number", "1.5e3") in kinds
