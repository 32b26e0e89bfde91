"""One pass over a fact's tokens, collecting its terms with their negation, feeling and order."""

from __future__ import annotations

from dataclasses import replace

from memory.judging import lexicon
from memory.judging.subject import POSSESSIVE_PRONOUNS, THIRD_PERSON, Subject, relation
from memory.judging.terms import Term, TermKind, canonical, groups, is_known
from memory.judging.words import PREPOSITIONS, STOP_WORDS, SUBJECT_PRONOUNS, Token, TokenKind, stem

# Words that end a clause, and with it a negation's reach.
_CLAUSE_ENDS = frozenset("but although though because while whereas except so".split())
_CORRECTED_OPENINGS = frozenset("my our i we he she they his her their the".split())
"""Words after an opening "no" that begin the fact itself."""
_RESTARTS = frozenset("i we he she they".split())
"""Words after a "no" or "not really" further on that begin the fact again."""
_CORRECTING_NEGATIONS = frozenset(("no", "not", "never"))
_CORRECTING_FILLERS = frozenset(
    "no not really sorry wait well oh ok okay yeah yes actually um uh er erm so".split()
)
"""Words of no weight around a correction ("well no", "no no", "actually no, sorry")."""
_SEQUENCE_WORDS = frozenset(("then", "before", "after", "because", "if", "whenever"))
"""Words that put what comes before them and what comes after in a sequence, or make one the
cause of the other."""


def _holder(term: Term) -> bool:
    """A name or a relative first in the fact: who has a state, never what it excludes ("a cat
    allergy" excludes the cat)."""
    return term.position == 0 and (
        term.kind is TermKind.NAME or term.text in lexicon.RELATIONS.values()
    )


# Words after which "but" is "except".
_ALL = frozenset("everything anything all everyone anyone everybody anybody".split())
# "I moved to Porto" says where one lives: the term it adds, and the words after "moved" that
# make it a move of home.
_LIVE = "live"
_LEAVE_FOR = frozenset(("to", "back", "abroad", "away", "in", "into", "out"))
# Auxiliaries between a person and "moved": "she has moved to Leeds".
_AUXILIARIES = frozenset("has have had just recently finally".split())
_WHEN = frozenset("when whenever after before since until till once".split())
"""Words that open a clause saying when."""
_MOVED_TO = frozenset("to into from over on back across onto in".split())
"""Words after "moved" that lead to the new value ("moved to SQLite", "moved over to Linux")."""
_MOVED_REACH = 4
# Prepositions after which a word written small may be a name ("in leeds", "at siemens").
_NAMING_PREPOSITIONS = frozenset("in at to from near for with".split())
# Possessive pronouns that stand for a home after a preposition ("at ours", "to theirs").
_PLACE_PRONOUNS = frozenset("ours mine yours theirs hers his".split())
_RANKED = (TermKind.WORD, TermKind.NAME, TermKind.GROUP)
"""What a ranking ranks: things, names, and members of a group ("drive" is a car's)."""
# Words before a month written small ("of march", "in may").
_BEFORE_MONTHS = frozenset("of in since until till before after by during early late mid".split())


_AFTER_A_NAMED_WILL = frozenset("and is are was were has had to from with said says".split())
_BEFORE_A_NAMED_WILL = frozenset(
    stem(word)
    for word in "with to for from by meet met see saw call drive drove take took visit marry "
    "married than".split()
)
_BEFORE_A_WILL_NAMED_NOT = frozenset(
    "i you he she it we they that who which there this my your his her its our their the a "
    "but 's".split()
)


class Walker:
    """One pass over the tokens, collecting terms with their negation, feeling and ranking.

    ``walk`` then ``imply`` fill the public attributes, which ``reading`` turns into a
    Reading: terms, negated, sentiment, order, change, wishing, preferring and implying.
    """

    def __init__(self, tokens: list[Token], subject: Subject, copula: int) -> None:
        self.subject = subject
        self.tokens = tokens
        self.consumed = subject.tokens
        self.copula = copula
        self._index = 0
        self.terms: list[Term] = []
        self.negated: list[Term] = []
        self.sentiment = 0
        self.order: tuple[Term, Term] | None = None
        self.sequence: list[tuple[str, int]] = []
        """Each "then", "before" or "after" with the position of the term that follows it."""
        self.change = ""
        self.wishing = False
        self.preferring = False
        self.implying: list[str] = []
        self.bare_negation = False
        """A negation that fell on no content ("Carlos is not my boss": the words after it name
        who the fact is about)."""
        self.corrected = False  # the speaker took back what they had begun to say
        self._clause = 0
        self._possessing = False
        self._said_anything = False
        self._moved = False
        first = next((token for token in tokens if token.kind is TokenKind.WORD), None)
        self._opening = first is not None and first.text in POSSESSIVE_PRONOUNS
        self._slot = ""
        self._negating = False
        self._negation_fresh = False
        self._pending_order: tuple[Term, bool] | None = None
        self._last_content: Term | None = None

    def walk(self) -> None:
        """Read every token not consumed by the holder, left to right."""
        for index, token in enumerate(self.tokens):
            self._index = index
            if index in self.consumed or token.kind is TokenKind.POSSESSIVE:
                continue
            self._said_anything = self._said_anything or (
                token.kind is TokenKind.WORD and token.text not in STOP_WORDS
            )
            # "My car loan ends in 2030": the words after a leading "my" name the subject, up to
            # a function word.
            if token.kind is not TokenKind.WORD or token.text in STOP_WORDS:
                self._opening = self._opening and token.text in POSSESSIVE_PRONOUNS
            if token.kind is TokenKind.WORD and token.text in _SEQUENCE_WORDS:
                self.sequence.append((token.text, len(self.terms) + len(self.negated)))
            if token.kind is TokenKind.BREAK or token.text in _CLAUSE_ENDS:
                self._end_clause()
                if self._excepting(index):
                    self._negate()  # "except Fridays" denies what follows
            elif token.kind is TokenKind.TIME:
                self._add(token.text, token.surface, TermKind.TIME)
            elif token.kind is TokenKind.NUMBER:
                self._number(index, token)
            else:
                self._word(index, token)
        self.bare_negation = self.bare_negation or self._negation_fresh

    def imply(self) -> None:
        """Add the negations that states imply, each its own clause: "vegetarian" says no meat,
        "allergic to peanuts" says no peanuts."""
        terms = list(self.terms)
        for term in terms:
            implied = [
                Term(word, f"{term.surface}: no {word}", TermKind.WORD)
                for word in lexicon.IMPLIED_NEGATIONS.get(term.text, ())
            ]
            if term.text in lexicon.EXCLUDING:
                implied = [
                    replace(other, surface=f"{term.surface}: no {other.surface}")
                    for other in terms
                    if other is not term
                    and not other.is_value
                    and not other.in_subject  # who is allergic, not to what
                    and other.surface != self.subject.surface
                    # what it is to: after it ("allergic to nuts"), or just before ("a nut
                    # allergy"), not who has it ("ben has a penicillin allergy", "dad's
                    # allergic")
                    and (
                        other.position > term.position
                        or (other.position == term.position - 1 and not _holder(other))
                    )
                ]
            for negated in implied:
                self._clause += 1
                self.negated.append(replace(negated, clause=self._clause))
                self.implying.append(negated.text)
            if implied:
                self.implying.append(term.text)

    def _end_clause(self) -> None:
        self.bare_negation = self.bare_negation or self._negation_fresh
        self._negation_fresh = False
        self._slot = ""
        self._negating = False
        self._pending_order = None
        self._last_content = None

    def _number(self, index: int, token: Token) -> None:
        # "at 7" is a clock time, and compares with "at 7am"; "at 12 Elm Street" is not.
        following = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        before_content = (
            following is not None
            and following.kind is TokenKind.WORD
            and following.text not in STOP_WORDS
            and not lexicon.groups_of(canonical(following.text))
        )
        clock = token.text.isdigit() and 1 <= int(token.text) <= 12
        if self._slot == "at" and clock and not before_content:
            self._add(f"{token.text}:00", token.surface, TermKind.TIME)
        else:
            self._add(token.text, token.surface, TermKind.NUMBER)

    def _word(self, index: int, token: Token) -> None:
        word = token.text
        following = self._neighbour(1)
        if word in lexicon.QUANTITY_BOUNDS and following and following.kind is TokenKind.NUMBER:
            amount = lexicon.QUANTITY_BOUNDS[word]  # "more than 30 kg": a bound, not a ranking
            self._add(amount, token.surface, TermKind.GROUP, groups=lexicon.groups_of(amount))
        elif word in lexicon.ORDER_MARKERS:
            self._order_marker(index, word)
        elif word in POSSESSIVE_PRONOUNS:
            # "I like my eggs runny" describes the eggs; "My car loan ends" is a compound.
            self._possessing = self._said_anything
        elif word in PREPOSITIONS:
            if lexicon.groups_of(word):
                # "before" and "after" mark a time and are values of their own ("before bed").
                self._add(word, token.surface, TermKind.GROUP, groups=lexicon.groups_of(word))
            if word == "to" and self.preferring and self._last_content is not None:
                self._pending_order = (self._last_content, True)
            self._slot = word
            if word == "to" and self.change:
                # "moved to Porto" says where one lives now ("in Porto"); "switched banks to
                # Monzo" names a new value for whatever slot the old one filled.
                self._slot = "in" if self._moved else ""
            self._moved = False
        elif word in lexicon.NEGATIONS:
            if self._correcting(index):
                return  # "no, my husband wants sugar": the speaker correcting, no negation
            if index and self.tokens[index - 1].text == "used-to":
                # "used to not like olives": not then, so now
                self._negating = self._negation_fresh = False
                return
            if lexicon.gives_up(self.change) and (
                word == "without" or (word == "not" and self.tokens[index - 1].text == "but")
            ):
                # "sold the bike without the lock", "sold the car but not the roof box": kept
                self._negating = self._negation_fresh = False
                self._slot = "with" if word == "without" else ""
                return
            self._negate()
            if word == "without":
                self._slot = "with"
        elif word in lexicon.NEGATING_CHANGES:
            if self._negating and self._negation_fresh:
                # "didn't quit my job", "never gave up smoking": two negations, the job kept
                self._negating = self._negation_fresh = False
            else:
                self._negate()
            self.change = token.surface
        elif word in lexicon.CHANGES and not (token.capitalised and not token.initial):
            if not self._a_time_clause(index):
                self.change = token.surface
            if word == "moved" and self._moved_home(index):
                self._add(_LIVE, token.surface, TermKind.WORD)
                self._moved = True
        elif (feeling := lexicon.lookup(lexicon.SENTIMENT, word, stem(word))) is not None:
            self._feel(feeling, canonical(word))
        elif word in lexicon.WISHES:
            self.wishing = True
        elif word == "than" and self.preferring and self._last_content is not None:
            # "would rather" is read as "prefer", so its "than" ranks: "rather walk than drive".
            self._pending_order = (self._last_content, True)
        elif word in _PLACE_PRONOUNS and self._slot:
            self._add(word, token.surface, TermKind.WORD)  # "a barbecue at ours": a place
        elif (
            word not in STOP_WORDS
            or (
                word in lexicon.AMBIGUOUS_MONTHS
                and ((token.capitalised and not token.initial) or self._dated())  # "in may 2026"
            )
            or (word == "will" and self._will_named(index))
        ):
            if word == "will" and not token.capitalised:
                token = replace(token, capitalised=True)  # a name, written small
            self._content(token)
            self._possessing = False

    def _will_named(self, index: int) -> bool:
        """Whether a "will" names someone ("married to Will", "Mum and Will are visiting",
        "driving Will to the airport"): no verb can follow it where it stands, as one follows
        the "will" of what is to come."""
        before = self.tokens[index - 1].surface.lower() if index else ""
        if before in _BEFORE_A_WILL_NAMED_NOT:
            return False  # "he will", "her will" (what she leaves)
        after = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        if after is None or after.kind is TokenKind.BREAK or after.kind is TokenKind.POSSESSIVE:
            return bool(before)
        if before == "and":  # "Jack and Will are", not "... and will pick them up"
            return after.text in _AFTER_A_NAMED_WILL
        return after.text in _AFTER_A_NAMED_WILL or stem(before) in _BEFORE_A_NAMED_WILL

    def _excepting(self, index: int) -> bool:
        """ "except", or "but" after "everything" ("I eat everything but fish"; "nothing but
        fish" says only fish)."""
        word = self.tokens[index].text
        before = self.tokens[index - 1].text if index else ""
        before_surface = self.tokens[index - 1].surface.lower() if index else ""
        every = before_surface.startswith("every ")  # "every day but Sunday"
        following = self.tokens[index + 1].text if index + 1 < len(self.tokens) else ""
        clause = following in SUBJECT_PRONOUNS  # "I eat everything but I'm allergic to nuts"
        return word == "except" or (word == "but" and (before in _ALL or every) and not clause)

    def _correcting(self, index: int) -> bool:
        """A "no" that opens the fact before who it is about ("no my husband wants sugar", "no,
        I said Tuesday"), or a "no", "not really" or "never" before a speaker taking it up again
        ("not really, I hate sushi", "i hate sushi actually no i love it now"): the speaker
        answering, or setting right what they began to say (then :attr:`corrected`), not a
        negation. After words of no weight alone ("i do not i swear smoke") it negates."""
        word = self.tokens[index].text
        if word not in _CORRECTING_NEGATIONS:
            return False
        before = [token for token in self.tokens[:index] if token.kind is TokenKind.WORD]
        opening = all(token.text in _CORRECTING_FILLERS for token in before)
        taking_back = any(token.text not in STOP_WORDS for token in before)
        if not opening and not taking_back:
            return False
        after = index + 1
        while after < len(self.tokens) and (
            self.tokens[after].text in _CORRECTING_FILLERS
            or self.tokens[after].kind is TokenKind.BREAK
        ):
            after += 1
        following = self.tokens[after] if after < len(self.tokens) else None
        if following is None:
            return False
        broken = self.tokens[index + 1].kind is TokenKind.BREAK
        restarting = following.text in _RESTARTS or (
            word == "no" and opening and (broken or following.text in _CORRECTED_OPENINGS)
        )
        if restarting and taking_back and not opening:
            self.corrected = True
        return restarting

    def _negate(self) -> None:
        self._negating = True
        self._negation_fresh = True
        self._clause += 1

    def _feel(self, feeling: int, word: str) -> None:
        # "don't like" is a dislike, not a negated like: the negation is spent on the feeling.
        if self._negating and self._negation_fresh:
            feeling = -feeling
            self._negating = False
            self._negation_fresh = False
        self.sentiment = feeling
        self.preferring = self.preferring or word.startswith("prefer")

    def _order_marker(self, index: int, word: str) -> None:
        following = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        if self._last_content is None or following is None or following.kind is not TokenKind.WORD:
            return
        self._pending_order = (self._last_content, lexicon.ORDER_MARKERS[word])

    def _a_time_clause(self, index: int) -> bool:
        """Whether the word at ``index`` says when, not a change of what the fact says: it ends a
        clause that says when ("when we moved", "after I switched"), or it is a move that names
        no new value ("we moved here")."""
        before = [token.text for token in self.tokens[max(0, index - 2) : index]]
        if any(word in _WHEN for word in before):
            return True
        # "I moved here when I was 35": a move with no new value named ("moved to SQLite",
        # "moved our broadband to Virgin")
        after = {token.text for token in self.tokens[index + 1 : index + 1 + _MOVED_REACH]}
        return self.tokens[index].text == "moved" and not after & _MOVED_TO

    def _moved_home(self, index: int) -> bool:
        """ "I moved to Porto": a person moving says where they live; a meeting moving does not."""
        start = index - 1
        while start > 0 and self.tokens[start].text in _AUXILIARIES:
            start -= 1
        before = self.tokens[start] if start >= 0 else None
        after = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
        by_person = before is not None and (
            before.text in SUBJECT_PRONOUNS or before.text in THIRD_PERSON or start in self.consumed
        )
        if not by_person or after is None or after.text not in _LEAVE_FOR:
            return False
        # "I moved to SQLite" names a new thing of a known kind, not a new home.
        destination = self.tokens[index + 2] if index + 2 < len(self.tokens) else None
        known_kind = destination is not None and bool(
            lexicon.ancestors(canonical(destination.text))
        )
        return not known_kind

    def _content(self, token: Token) -> None:
        word = canonical(token.text)
        following = self._neighbour(1)
        if following is not None and following.text == "than" and not self.preferring:
            # "taller than Lucy" is a comparison, not "tall": "as tall as Lucy" says another
            # thing (and "-er" would read as a doer, "tall" / "taller")
            word = f"than-{word}"
        month = word in lexicon.AMBIGUOUS_MONTHS and self._dated()  # "in may 2026"
        if (
            word in lexicon.LIGHT_VERBS
            and not (token.capitalised and not token.initial)
            and not month
        ):
            if word == "want":
                self.wishing = True
            return
        if word in lexicon.FEELING_TERMS:
            self.sentiment = self.sentiment or 1
        member_of = groups(word)
        if word in lexicon.AMBIGUOUS_MONTHS and not token.capitalised and not self._dated():
            member_of = ()
        if lexicon.groups_of(word):
            kind, certain = TermKind.GROUP, True
        elif token.capitalised and not (token.initial and is_known(token.text)):
            kind, certain = TermKind.NAME, not token.initial
        else:
            kind, certain = TermKind.WORD, True
        possessed = self._possessing and relation(token) is None
        # Transcripts and models capitalise at random: "we live in manchester" names a city all
        # the same. Written small, its only sign is where it stands: it stays a word, and counts
        # as a name against a name ("We moved to Leeds").
        maybe_name = kind is TermKind.WORD and self._named_by_place(token)
        self._add(word, token.surface, kind, member_of, certain, possessed, maybe_name)

    def _neighbour(self, offset: int) -> Token | None:
        position = self._index + offset
        return self.tokens[position] if 0 <= position < len(self.tokens) else None

    def _dated(self) -> bool:
        """ "the first of march", "before march", "march 3rd": a month, written small."""
        before, after = self._neighbour(-1), self._neighbour(1)
        numbered = any(t is not None and t.kind is TokenKind.NUMBER for t in (before, after))
        return numbered or (before is not None and before.text in _BEFORE_MONTHS)

    def _named_by_place(self, token: Token) -> bool:
        """A word written small where a name stands: straight after a preposition or a verb of
        a single-valued attribute, with no article, and not a word the lexicon knows ("in
        leeds", "at siemens", "support spurs"; never "in town" or "at work")."""
        before = self._neighbour(-1)
        if before is None or before.kind is not TokenKind.WORD:
            return False
        after_verb = canonical(before.text) in lexicon.VERBS_BEFORE_NAMES
        if not (before.text in _NAMING_PREPOSITIONS or after_verb):
            return False
        word = token.text
        return not (
            is_known(word)
            or word in STOP_WORDS
            or word in lexicon.COMMON_BARE_NOUNS
            or relation(token) is not None
            or lexicon.groups_of(canonical(word))
            or not word.isalpha()
        )

    def _add(
        self,
        text: str,
        surface: str,
        kind: TermKind,
        groups: tuple[str, ...] = (),
        certain: bool = True,
        possessed: bool = False,
        maybe_name: bool = False,
    ) -> None:
        """Add a term where the walk stands: its slot, negation, subject part and position."""
        term = Term(
            text,
            surface,
            kind,
            slot=self._slot,
            certain=certain,
            maybe_name=maybe_name,
            groups=groups,
            clause=self._clause if self._negating else 0,
            possessed=possessed,
            in_subject=self._index < self.copula or self._opening,
            position=len(self.terms) + len(self.negated),
            at=self._index,
        )
        (self.negated if self._negating else self.terms).append(term)
        self._negation_fresh = False
        if self._pending_order is not None and term.kind in _RANKED:
            left, left_first = self._pending_order
            self.order = (left, term) if left_first else (term, left)
            self._pending_order = None
        self._last_content = term
