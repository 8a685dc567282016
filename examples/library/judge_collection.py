"""Read every record of a collection and judge it: python examples/library/judge_collection.py."""

import gamerec

for record in gamerec.read_records("fixtures/valid/collection.pbs"):
    verdict = gamerec.validate(record)  # also score, adjudicate, replay, compare_records
    print(verdict.valid, list(verdict.result.scores), [e.code for e in verdict.errors])
