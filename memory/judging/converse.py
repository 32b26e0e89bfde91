"""Two people's relation said from each side: "Tom is Anna's husband" is "Anna is Tom's wife".

A pure check over two facts' plain words. It answers only for the plainest form, "<name> is
<name>'s <relative>", where nothing else could differ, so a relation said from the other side is
a repeat rather than a question for the user.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.judging import lexicon

_SPOUSES = frozenset(("husband", "wife"))
_PARENTS = frozenset(("mother", "father", "parent"))
_CHILDREN = frozenset(("son", "daughter", "child"))
_GRANDPARENTS = frozenset(("grandmother", "grandfather", "grandparent"))
_GRANDCHILDREN = frozenset(("grandson", "granddaughter", "grandchild"))
_SIBLINGS = frozenset(("brother", "sister", "sibling"))
_PARENTS_IN_LAW = frozenset(("mother-in-law", "father-in-law"))
_CHILDREN_IN_LAW = frozenset(("son-in-law", "daughter-in-law"))
_STEPPARENTS = frozenset(("stepmother", "stepfather"))
_STEPCHILDREN = frozenset(("stepson", "stepdaughter"))

_CONVERSES: dict[str, frozenset[str]] = {
    **dict.fromkeys(_SPOUSES, _SPOUSES),
    **dict.fromkeys(_PARENTS, _CHILDREN),
    **dict.fromkeys(_CHILDREN, _PARENTS),
    **dict.fromkeys(_GRANDPARENTS, _GRANDCHILDREN),
    **dict.fromkeys(_GRANDCHILDREN, _GRANDPARENTS),
    **dict.fromkeys(_SIBLINGS, _SIBLINGS),
    **dict.fromkeys(("aunt", "uncle"), frozenset(("nephew", "niece"))),
    **dict.fromkeys(("nephew", "niece"), frozenset(("aunt", "uncle"))),
    **dict.fromkeys(_PARENTS_IN_LAW, _CHILDREN_IN_LAW),
    **dict.fromkeys(_CHILDREN_IN_LAW, _PARENTS_IN_LAW),
    **dict.fromkeys(_STEPPARENTS, _STEPCHILDREN),
    **dict.fromkeys(_STEPCHILDREN, _STEPPARENTS),
    "cousin": frozenset(("cousin",)),
    "partner": frozenset(("partner",)),  # a business partner, perhaps: no wife nor husband
}
"""What each relative is to the other person: a husband's other side is a wife (or a husband);
a mother's a son or a daughter."""

_RELATION_SAID = re.compile(r"^(\w+)(?: is|'s) (\w+)'s ([\w-]+)$")
"""The plainest form: "tom is anna's husband", or as a transcript writes it, "tom's anna's
husband"."""


@lru_cache(maxsize=4096)
def _relation(plain: str) -> tuple[str, str, str] | None:
    found = _RELATION_SAID.match(plain.strip().rstrip(".!"))
    if found is None:
        return None
    who, whose, relative = found.groups()
    return who, whose, lexicon.RELATIONS.get(relative, relative)


def said_from_the_other_side(new_plain: str, old_plain: str) -> bool:
    """Whether two facts say one relation between two people, each from one side ("Tom is
    Anna's husband" / "Anna is Tom's wife", "Grace is Oliver's grandmother" / "oliver is grace's
    grandson")."""
    new, old = _relation(new_plain), _relation(old_plain)
    if new is None or old is None or new[0] == new[1]:
        return False
    if (new[0], new[1]) != (old[1], old[0]):
        return False
    return old[2] in _CONVERSES.get(new[2], frozenset())
