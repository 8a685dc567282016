"""Benchmarks: each prints its figures next to a reference measured in the same run.

``python -m bench`` (``__main__``: the options, the order of the sections, the table) runs the
sections of ``replay_sections``, ``tool_sections`` and ``server_sections``, which share
``shared`` (the run's scale, the peers, a step); each section times one ``bench_*`` module.
"""
