"""Small tables of general English knowledge that the fact comparison reads.

Every entry is common knowledge (family words, weekdays, feelings, kinds of drink), never a word
chosen to pass one labelled pair. Keys are lowercase surface words or their stems (see
``words.stem``); values are canonical forms, which are final and never stemmed again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def _table(rows: Mapping[str, str]) -> dict[str, str]:
    """Expand ``{"canonical": "alias alias ..."}`` into ``{alias: canonical}`` (and itself)."""
    table: dict[str, str] = {}
    for canonical, aliases in rows.items():
        for alias in (canonical, *aliases.split()):
            table[alias] = canonical
    return table


def _members(rows: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Expand ``{"group": "member member ..."}`` into ``{member: (group, ...)}``."""
    table: dict[str, tuple[str, ...]] = {}
    for group, members in rows.items():
        for member in members.split():
            table[member] = (*table.get(member, ()), group)
    return table


def _closure(links: Iterable[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Every ancestor of each word, following ``(children, parent)`` links transitively."""
    direct: dict[str, set[str]] = {}
    for children, parent in links:
        for child in children.split():
            direct.setdefault(child, set()).add(parent)
    closed: dict[str, frozenset[str]] = {}
    for child in direct:
        seen: set[str] = set()
        todo = list(direct[child])
        while todo:
            parent = todo.pop()
            if parent not in seen:
                seen.add(parent)
                todo.extend(direct.get(parent, ()))
        closed[child] = frozenset(seen)
    return closed


# People a fact can be about. "my <relation> ..." makes the relation the subject of the fact.
RELATIONS: dict[str, str] = _table(
    {
        "mother": "mom mum mommy mummy mam mama momma",
        "father": "dad daddy papa",
        "parent": "parents folks",
        "brother": "bro brothers",
        "sister": "sis sisters",
        "sibling": "siblings",
        "son": "sons",
        "daughter": "daughters",
        "child": "children kid kids",
        "baby": "babies",
        "wife": "",
        "husband": "hubby",
        "partner": "spouse",
        "girlfriend": "gf",
        "boyfriend": "bf",
        "fiance": "fiancee fiancé fiancée",
        # an ex, a relative by marriage, is a man or a woman as the plain word is
        "ex-partner": "ex ex-spouse",
        "ex-wife": "",
        "ex-husband": "",
        "ex-girlfriend": "",
        "ex-boyfriend": "",
        "ex-fiance": "ex-fiancee",
        "grandmother": "grandma granny gran nana",
        "grandfather": "grandpa granddad grandad gramps",
        "grandparent": "grandparents",
        "grandchild": "grandchildren grandkids",
        "grandson": "grandsons",
        "granddaughter": "granddaughters",
        "aunt": "auntie aunty",
        "uncle": "",
        "cousin": "cousins",
        "niece": "",
        "nephew": "",
        "friend": "friends mate pal buddy bestie",
        "roommate": "flatmate housemate roomie roommates flatmates housemates",
        "colleague": "coworker co-worker colleagues coworkers",
        "boss": "manager",
        "parent-in-law": "in-laws in-law",
        "mother-in-law": "mothers-in-law mum-in-law mom-in-law",
        "father-in-law": "fathers-in-law dad-in-law",
        "sister-in-law": "sisters-in-law",
        "brother-in-law": "brothers-in-law",
        "son-in-law": "sons-in-law",
        "daughter-in-law": "daughters-in-law",
        # a step-, half-, god- or grand- relative is too
        "stepparent": "stepparents",
        "stepmother": "stepmom stepmum",
        "stepfather": "stepdad",
        "stepchild": "stepchildren",
        "stepson": "",
        "stepdaughter": "",
        "stepbrother": "step-brother",
        "stepsister": "step-sister",
        "half-brother": "halfbrother",
        "half-sister": "halfsister",
        "godparent": "godparents",
        "godmother": "",
        "godfather": "",
        "godchild": "godchildren",
        "godson": "",
        "goddaughter": "",
        "neighbour": "neighbor neighbours neighbors",
        "landlord": "landlady",
        "teacher": "",
        "doctor": "gp",
        "dentist": "",
        "therapist": "",
        "dog": "puppy dogs",
        "cat": "kitten cats",
        "pet": "pets",
    }
)

# Relations that name a service more than a person; "my dentist appointment" is no dentist's name.
SERVICE_RELATIONS = frozenset("doctor dentist teacher therapist boss landlord".split())

# Words between "my" and a relation that change who is meant ("my older brother"), by canonical.
RELATION_MODIFIERS: dict[str, str] = _table(
    {
        "older": "elder big oldest eldest",
        "younger": "little youngest baby",
        "best": "",
        "twin": "",
        "step": "",
        "ex": "former",
    }
)

# Same meaning, one canonical word. Relation words are here too, for facts that mention a relative.
SYNONYMS: dict[str, str] = {
    **RELATIONS,
    **_table(
        {
            "name": "named called names",
            "car": "drive driv vehicle auto",
            "university": "uni college",
            "remote": "remotely",
            "nearly": "almost",
            "apartment": "flat",
            "movie": "film films movies",
            "tv": "television telly",
            "vacation": "holiday holidays vacations",
            "favourite": "favorite fave",
            "colour": "color colours colors",
            "grey": "gray",
            "phone": "mobile cellphone smartphone",
            "computer": "pc",
            "email": "e-mail",
            "coriander": "cilantro",
            "aubergine": "eggplant",
            "courgette": "zucchini",
            "bicycle": "bike cycle",
            "work": "job employer occupation profession career",
            "live": "home address reside resident",
            "football": "soccer",
            "medication": "medicine medicines meds pills pill tablets",
            "rubbish": "garbage trash refuse bins",
            "renovate": "redo redoing renovating renovation refurbish",
            "wifi": "wi-fi",
            "broadband": "internet",
            "surname": "",
            "kilogram": "kilo kilos kg kilograms",
            "food": "cuisine",
            "go": "attend travel travelling traveling",
            "birth": "born birthday",
            "fly": "flight flights",
            "speak": "talk talks talking spoke",
            "slow": "slowly slower",
            "fast": "quickly faster quick",
            "loud": "louder loudly",
            "quiet": "quieter quietly",
            "subway": "tube metro underground",
            "closed": "shut",
            "answer": "answers reply replies response responses",
            "diabetes": "diabetic",
            "asthma": "asthmatic",
            "epilepsy": "epileptic",
            "allergy": "allergic",
            "anaemia": "anemia anaemic anemic",
            "autism": "autistic",
            "dyslexia": "dyslexic",
            "arthritis": "arthritic",
            "coeliac": "celiac",
            "insomnia": "insomniac",
            "vegetarian": "veggie",
            "big": "large huge",
            "small": "tiny",
            "short": "brief concise",
            "long": "detailed lengthy",
            "casual": "informal",
            "savoury": "savory",
            "less": "fewer",
            "wake": "waking woke wak",
            "kilometre": "km kilometer kilometres kilometers",
            "under": "below beneath underneath",
            "inside": "indoors",
            "outside": "outdoors",
            "metre": "metres meter meters",
            "centimetre": "cm centimeter centimetres centimeters",
            "millimetre": "mm millimeter millimetres millimeters",
            "litre": "litres liter liters",
            "millilitre": "ml mls mil mils millilitres milliliter milliliters",
            "milligram": "mg milligrams milligramme milligrammes",
            "gram": "grams gramme grammes",
            "foot": "feet ft",
            "inch": "inches",
            "ounce": "oz ounces",
            "mile": "miles",
            "ubuntu": "",
            "macos": "osx mac",
            "iphone": "ios",
            "postgres": "postgresql",
            "vscode": "vs-code",
        }
    ),
}

# Irregular verb forms, so "drove" compares with "drive".
IRREGULAR: dict[str, str] = _table(
    {
        "be": "am is are was were been being",
        "have": "has had",
        "do": "does did done",
        "go": "goes went gone",
        "eat": "ate eaten",
        "drink": "drank drunk",
        "drive": "drove driven",
        "fly": "flew flown",
        "take": "took taken",
        "get": "got gotten",
        "run": "ran",
        "swim": "swam swum",
        "teach": "taught",
        "buy": "bought",
        "meet": "met",
        "speak": "spoke spoken",
        "write": "wrote written",
        "wake": "woke woken",
        "wear": "wore worn",
        "make": "made",
        "sell": "sold",
        "give": "gave given",
        "feel": "felt",
        "become": "became",
        "begin": "began begun",
        "leave": "left",
        "sleep": "slept",
        "keep": "kept",
        "ride": "rode ridden",
        "grow": "grew grown",
        "know": "knew known",
        "think": "thought",
        "bring": "brought",
        "see": "saw seen",
        "sit": "sat",
        "stand": "stood",
        "spend": "spent",
        "bite": "bit bitten",
        "steal": "stole stolen",
        "choose": "chose chosen",
        "break": "broke broken",
        "forget": "forgot forgotten",
        "hide": "hid hidden",
        "shake": "shook shaken",
        "freeze": "froze frozen",
        "catch": "caught",
        "lose": "lost",
        "pay": "paid",
        "lend": "lent",
        "send": "sent",
        "build": "built",
        "hold": "held",
        "feed": "fed",
        "fight": "fought",
        "win": "won",
        "sing": "sang sung",
        "draw": "drew drawn",
        "throw": "threw thrown",
        "tell": "told",
        "sting": "stung",
        "tear": "tore torn",
        "forgive": "forgave forgiven",
    }
)

# Broader terms implied by a word: "wine" implies "alcohol", "Saturday" implies "weekend".
HYPERNYMS: dict[str, frozenset[str]] = _closure(
    (
        (
            "wine beer whisky whiskey vodka gin rum cocktail cocktails champagne prosecco cider "
            "sake tequila liquor booze spirits lager ale bourbon brandy cognac sherry",
            "alcohol",
        ),
        (
            "beef pork chicken steak bacon ham lamb sausage sausages burger burgers turkey veal "
            "salami mince duck venison",
            "meat",
        ),
        ("salmon tuna cod shrimp prawn prawns sushi trout sardines seafood", "fish"),
        ("milk cheese butter yogurt yoghurt cream", "dairy"),
        ("espresso latte cappuccino americano mocha macchiato decaf", "coffee"),
        ("coffee tea cola coke", "caffeine"),
        ("cigarette cigarettes cigar cigars vape vaping tobacco", "smoke"),
        ("monday tuesday wednesday thursday friday", "weekday"),
        ("saturday sunday", "weekend"),
        ("iphone android", "phone"),
        ("macbook thinkpad chromebook", "laptop"),
        ("celsius fahrenheit", "temperature"),
        ("pixel galaxy", "android"),
        ("girlfriend boyfriend fiance", "partner"),
        ("bread pasta wheat beer pizza", "gluten"),
        ("ice-cream", "dairy"),
        ("laptop desktop", "computer"),
        (
            "volvo tesla toyota bmw audi ford honda volkswagen vw mercedes nissan kia hyundai "
            "fiat renault peugeot mazda subaru skoda porsche jeep chevrolet chevy lexus "
            "citroen dacia",
            "car",
        ),
        ("dog cat hamster rabbit parrot budgie goldfish guinea tortoise", "pet"),
        (
            "retriever labrador poodle spaniel terrier beagle collie dachshund sheepdog "
            "greyhound whippet husky pug bulldog rottweiler chihuahua",
            "dog",
        ),
        ("ubuntu debian fedora", "linux"),
        ("macos windows linux chromeos", "os"),
        ("brother sister", "sibling"),
        ("mother father", "parent"),
        ("son daughter", "child"),
        ("wife husband", "partner"),
        ("grandmother grandfather", "grandparent"),
        (
            "jazz rock pop classical rap metal blues country techno folk reggae punk soul opera "
            "hip-hop",
            "music",
        ),
        (
            "football soccer tennis basketball golf rugby cricket baseball hockey volleyball "
            "badminton squash",
            "sport",
        ),
        ("postgres mysql sqlite mongodb redis mariadb oracle", "database"),
        ("vim neovim emacs vscode nano sublime", "editor"),
        ("chrome firefox safari", "browser"),
        (
            "python rust java javascript typescript ruby haskell kotlin swift golang perl php",
            "language",
        ),
        ("english french spanish german italian portuguese chinese japanese", "language"),
        ("piano guitar violin drums cello flute saxophone trumpet ukulele", "instrument"),
        ("train bus tram subway", "transit"),
        (
            "teacher nurse doctor dentist engineer developer programmer accountant lawyer "
            "solicitor firefighter chef cook waiter waitress cashier pharmacist architect "
            "designer electrician plumber carpenter mechanic farmer pilot scientist researcher "
            "professor lecturer student journalist writer artist musician photographer "
            "consultant analyst therapist psychologist paramedic vet veterinarian librarian "
            "secretary receptionist cleaner builder soldier midwife surgeon",
            "occupation",
        ),
    )
)

# Mutually exclusive values of one attribute. Groups that are generic slot types (days, parts of
# the day) are listed in SLOT_GROUPS: they conflict only when the rest of the fact agrees.
EXCLUSIVE_GROUPS: dict[str, tuple[str, ...]] = _members(
    {
        "chronotype": "night-owl early-bird",
        "handedness": "left-handed right-handed ambidextrous",
        "marital": "single married divorced engaged widowed separated",
        "workplace": "remote office hybrid onsite",
        "diet": "vegan vegetarian pescatarian omnivore carnivore",
        "desktop-os": "macos windows linux ubuntu debian fedora chromeos",
        "phone-platform": "iphone android",
        "editor": "vim neovim emacs vscode nano sublime",
        "browser": "chrome firefox safari",
        "temperature-unit": "celsius fahrenheit",
        "measure-system": "metric imperial",
        "employment": "employed unemployed retired self-employed freelance",
        "pair-length": "short long",
        "temperature": "hot warm cool cold iced",
        "pair-open": "open closed",
        "pair-sign": "positive negative",
        "pair-brightness": "dim bright",
        "schedule": "full-time part-time",
        "colour": "red blue green yellow black white grey orange purple pink brown silver gold "
        "navy beige",
        "doneness": "rare medium well-done",
        "transport": "car bicycle bus train tram subway taxi motorbike scooter ferry",
        "pair-time": "early late",
        "pair-shade": "dark light",
        "pair-weight": "light heavy",
        "pair-volume": "loud quiet",
        "pair-speed": "fast slow",
        "pair-size": "big small",
        "pair-strength": "strong weak mild",
        "pair-spice": "spicy mild",
        "pair-tone": "formal casual",
        "pair-sequence": "before after",
        "pair-side": "aisle window",
        "pair-height": "high low",
        "pair-inside": "inside outside",  # "Tom smokes outside" / "... inside"
        "pair-limit": "least most",  # "at least two" / "at most two"
        "position": "under above",
        "scope": "only as-well",  # "just Tom walks the dog" / "Tom walks the dog too"
        "pair-sweet": "sweet savoury",
        "pair-amount": "more less",
        "pair-fit": "tight loose",
        "pair-firm": "firm soft",
        "currency": "pound dollar euro yen",
        "pair-plus": "plus minus",
        "pair-lock": "locked unlocked",
        "pair-area": "square-area square-sided",  # "10 square metres" / "10 metres square"
        "side": "left-hand right",
        "unit": "millimetre centimetre metre kilometre inch foot mile millilitre litre "
        "milligram gram kilogram ounce",  # "left" the direction; the verb is "leave"
        "weekday": "monday tuesday wednesday thursday friday saturday sunday weekday weekend",
        "daypart": "morning afternoon evening night tonight dawn dusk lunchtime day",
        "month": "january february march april may june july august september october "
        "november december",
        "season": "spring summer autumn winter",
        "meal": "breakfast brunch lunch dinner supper",
        "frequency": "daily weekly fortnightly monthly yearly annually hourly nightly",
    }
)

GROUP_WORDS = frozenset(EXCLUSIVE_GROUPS)

# Simple past forms of the irregular verbs above: a fact's tense ("mia went to oakwood nursery").
IRREGULAR_PAST = frozenset(
    "went ate drank drove flew took got ran swam taught bought met spoke wrote woke wore made "
    "sold gave felt became began left slept kept rode grew knew thought brought saw sat stood "
    "spent did bit stole chose broke forgot hid shook froze caught lost paid lent sent built "
    "held fed fought won sang drew threw told stung tore forgave".split()
)

# Words around a "left" that is a direction, not the past of "leave": "turn left", "my left
# knee", "on the left", "left side" ("Sam left Google" is the verb).
DIRECTION_BEFORE = frozenset(
    "turn turns turned turning keep keeps kept bear go goes the my your his her our their its "
    "on to far top bottom upper lower".split()
)
DIRECTION_AFTER = frozenset(
    "side hand ear eye knee leg arm foot hip shoulder wrist ankle elbow hand-side lane".split()
)

# Comparisons said the other way round, each read as its converse: "Ben is younger than Ann" is
# "Ann is older than Ben".
CONVERSES = {
    "younger": "older",
    "shorter": "taller",
    "smaller": "bigger",
    "lighter": "heavier",
    "slower": "faster",
    "later": "earlier",
    "lower": "higher",
    "poorer": "richer",
}

# Units written as one letter, which are units only after a number ("1.8 m", "200 l", "5 g").
UNIT_LETTERS = {"m": "metre", "l": "litre", "g": "gram"}

# Words of a relation that holds both ways: "Tom is married to Kate" is "Kate is married to Tom".
SYMMETRIC = frozenset(
    "married marry marri wed engaged divorced dating date with next door neighbour neighbor "
    "sibling cousin related opposite beside together alongside partner friend near".split()
)

# Titles before a name, by who they say the person is ("" for neither).
TITLES: dict[str, str] = {
    "mr": "man",
    "mister": "man",
    "mrs": "woman",
    "missus": "woman",
    "ms": "woman",
    "miss": "woman",
    "mx": "",
    "dr": "",
    "prof": "",
}

# Words that rank one among others or above another, so a relation after them holds one way
# ("best friend", "older sibling").
RANKING = frozenset(
    "best closest oldest dearest newest greatest truest favourite favorite only main older "
    "younger elder eldest youngest big little".split()
)

# Attributes whose value is a string, compared letter for letter ("dogs" is no password "dog").
LITERAL_ATTRIBUTES = frozenset(
    "password passcode passphrase pin code username login handle ssid network email account".split()
)

# Words that place a fact in the past without changing what it says ("was Leo's teacher last
# year"); with a verb's tense they mark a state that no longer holds.
PAST_MARKERS = frozenset("last year ago previously formerly once before past".split())

# How often, by rank: words of one rank say the same ("usually" / "normally"), of two ranks
# different things ("always" / "sometimes"). "never" is a negation, read as one.
FREQUENCIES: dict[str, int] = {
    **dict.fromkeys(("always", "invariably"), 5),
    **dict.fromkeys(("usually", "normally", "generally", "typically", "mostly"), 4),
    **dict.fromkeys(("often", "frequently", "regularly"), 3),
    **dict.fromkeys(("sometimes", "occasionally"), 2),
    **dict.fromkeys(("rarely", "seldom"), 1),
}

# Groups whose members are generic slot fillers; they never index a fact on their own.
SLOT_GROUPS = frozenset({"weekday", "daypart", "month", "season", "meal", "frequency"})

# Month names that are also ordinary words; they count as months only when capitalised.
AMBIGUOUS_MONTHS = frozenset({"may", "march"})

# What a state rules out: "I'm retired" says "no work", "I'm a vegetarian" says "no meat".
IMPLIED_NEGATIONS: dict[str, tuple[str, ...]] = {
    "vegetarian": ("meat",),
    "vegan": ("meat", "dairy", "egg"),
    "pescatarian": ("meat",),
    "teetotal": ("alcohol",),
    "teetotaler": ("alcohol",),
    "sober": ("alcohol",),
    "lactose-intolerant": ("dairy",),
    "dairy-free": ("dairy",),
    "coeliac": ("gluten",),
    "gluten-free": ("gluten",),
    "halal": ("pork",),
    "unemployed": ("work",),
    "retired": ("work",),
    "single": ("partner",),
    "alone": ("partner", "roommate", "parent", "child", "friend"),
    "only-child": ("sibling",),
    "childless": ("child",),
}

# Feelings about a thing: +1 likes it, -1 dislikes it. "not" before one flips it.
SENTIMENT: dict[str, int] = {
    **dict.fromkeys("like lik love lov enjoy adore ador prefer fond fan keen".split(), 1),
    **dict.fromkeys("hate hat dislike dislik detest loathe loath despise despis abhor".split(), -1),
    # Fear is not dislike, but "afraid of flying" disputes "I love flying" all the same.
    **dict.fromkeys("afraid scared terrified frightened".split(), -1),
}

# How someone feels about another, said before "with", "at", "of", "for" or "about" ("angry
# with Mia", "scared of the dog"): the one who feels it stands before the word.
FEELINGS_TOWARDS = frozenset(
    "afraid scared terrified frightened mad angry cross furious livid proud nervous worried "
    "anxious jealous sorry happy sad upset annoyed irritated frustrated disappointed pleased "
    "impressed bored obsessed fed sulky unhappy displeased delighted thrilled besotted smitten "
    "infatuated".split()
)

# How someone treats another, said before "with" ("the dog is rough with the kids").
MANNERS_TOWARDS = frozenset(
    "rough gentle strict patient impatient good kind rude harsh soft firm honest generous mean "
    "nice careful short stern affectionate playful grumpy cold warm".split()
)

# States that mean no more than what they rule out: "I'm a vegetarian" is "I don't eat meat".
DEFINED_BY_NEGATION = frozenset("vegetarian teetotal teetotaler single childless".split())

# Words after which the rest of the clause is ruled out ("allergic to peanuts": no peanuts).
EXCLUDING = frozenset(("allergy", "intolerant"))

# Feeling words that also name an attribute ("Sushi is my favourite food").
FEELING_TERMS = frozenset(("favourite", "support"))

# Words that make a fact a wish or a request rather than a state ("I want a Tesla").
WISHES = frozenset("want wish hope please".split())

# Words that negate what follows them in the clause.
NEGATIONS = frozenset("not no never without non none nothing neither nor excluding".split())

# Words (as written) that say a state ended; they also negate what follows ("I quit smoking").
NEGATING_CHANGES = frozenset("quit stopped no-longer used-to give-up got-rid-of sold".split())


def gives_up(change: str) -> bool:
    """Whether a change word as written ("used to", "no longer", "sold") says a state was left."""
    return change.lower().replace(" ", "-") in NEGATING_CHANGES


# Words (as written) that say a state changed ("I moved to Porto", "I drive a Tesla now").
CHANGES = frozenset(
    "moved switched changed now nowadays these-days anymore became started instead replaced "
    "upgraded swapped converted new recently from-now-on migrated".split()
)

# Markers of a bound before a number, and the amount word each says: "more than 30 kg" is not
# "less than 30 kg", nor "30 kg".
QUANTITY_BOUNDS = {
    "more-than": "more",
    "over": "more",
    "above": "more",
    "less-than": "less",
    "under": "less",
    "below": "less",
}

# Markers of a ranking between the word before and the word after: (marker, left is preferred).
ORDER_MARKERS: dict[str, bool] = {
    "over": True,
    "more-than": True,
    "rather-than": True,
    "better-than": True,
    "instead-of": True,
    "less-than": False,
    "worse-than": False,
}

# Verbs that carry little meaning of their own in a fact ("I have", "I use", "I go to").
LIGHT_VERBS = frozenset(
    "be have do get take use make keep want need go eat drink consume own possess put tend try "
    "ride set "
    "would should could can will shall may might must let".split()
)

# Words that name a single-valued attribute: a different value for them is a disagreement.
FUNCTIONAL = frozenset(
    "live reside based birth name nickname age job employer work study "
    "major degree car favourite support run os phone laptop computer editor "
    "browser commute origin grow-up works-as email password school language nationality religion "
    "height weight wake bedtime".split()
)

# Nouns said without an article after a preposition that are no names ("at work", "in town").
COMMON_BARE_NOUNS = frozenset(
    "home work school church hospital town bed college uni university class court prison sea "
    "work office lunch dinner breakfast night everything anything something nothing everyone "
    "anyone someone nobody time tv television radio line hand foot car bus train "
    # Fields of work, said bare: "I work in tech".
    "tech it finance marketing sales retail education healthcare construction hospitality "
    "law media insurance banking research science engineering design admin logistics".split()
)

# Verbs whose object is often a name ("I support Arsenal", "we use Sky").
VERBS_BEFORE_NAMES = frozenset("support use follow visit".split())

# Animals a household keeps or speaks of as it does of people: kept, named, fed, walked.
ANIMALS = frozenset(
    "dog cat pet puppy kitten rabbit hamster fish horse bird tortoise collie spaniel labrador "
    "terrier tabby".split()
)

# Broad words that add no information when one fact has them and the other does not.
GENERIC = frozenset(
    "music food dish drink thing stuff kind type sort name genre style piece bit way lot "
    "place time person people age favourite novel book works-as hobby pastime activity "
    "weather shift support class lesson lessons session".split()
)

# Multi-word expressions read as one token, matched on stems. Value: replacement tokens.
PHRASES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("can", "not", "stand"): ("hate",),
    ("can", "not", "bear"): ("hate",),
    ("can", "not", "abide"): ("hate",),
    ("can", "not", "handle"): ("dislike",),
    ("can", "not", "tolerate"): ("dislike",),
    ("not", "a", "fan", "of"): ("dislike",),
    ("a", "fan", "of"): ("like",),
    # "he's really into jazz", "she's not really into opera": a liking, said now ("I'm into my
    # second year" is how far along)
    **{(be, "really", "into"): ("like",) for be in ("am", "is", "are")},
    **{(be, "not", "into"): ("not", "like") for be in ("am", "is", "are")},
    **{(be, "not", "really", "into"): ("not", "like") for be in ("am", "is", "are")},
    ("fond", "of"): ("like",),
    ("keen", "on"): ("like",),
    ("would", "rather"): ("prefer",),
    ("no", "longer"): ("no-longer",),
    ("not", "any", "more"): ("not", "anymore"),
    ("any", "more"): ("anymore",),
    ("used", "to"): ("used-to",),
    ("did", "not", "use", "to"): ("did", "not", "used-to"),  # not "don't use to-do lists"
    ("give", "up"): ("give-up",),
    ("got", "rid", "of"): ("got-rid-of",),
    ("get", "rid", "of"): ("got-rid-of",),
    ("these", "day"): ("these-days",),
    ("from", "now", "on"): ("from-now-on",),
    ("ex", "wife"): ("ex-wife",),
    ("ex", "husband"): ("ex-husband",),
    ("ex", "girlfriend"): ("ex-girlfriend",),
    ("ex", "boyfriend"): ("ex-boyfriend",),
    ("ex", "partner"): ("ex-partner",),
    ("look", "after"): ("look-after",),  # a carer, not a time: "the nanny looks after Gran"
    # "is used to driving" is at ease with it, "used to drive" did once
    **{(be, "used", "to"): ("accustomed-to",) for be in "is are am was were get got".split()},
    ("eat", "in"): ("eat-in",),  # at home, against "eat out"
    ("eat", "out"): ("eat-out",),
    # relatives by marriage as a transcript writes them, without hyphens
    **{
        (relative, "in", "law"): (f"{relative}-in-law",)
        for relative in "mother father sister brother son daughter mum mom dad".split()
    },
    ("take", "after"): ("take-after",),
    ("half", "brother"): ("half-brother",),
    ("half", "sister"): ("half-sister",),
    ("step", "brother"): ("stepbrother",),
    ("step", "sister"): ("stepsister",),
    ("step", "mother"): ("stepmother",),
    ("step", "father"): ("stepfather",),
    ("step", "son"): ("stepson",),
    ("step", "daughter"): ("stepdaughter",),
    ("more", "than"): ("more-than",),
    ("fewer", "than"): ("less-than",),
    ("rather", "than"): ("rather-than",),
    ("better", "than"): ("better-than",),
    ("instead", "of"): ("instead-of",),
    ("less", "than"): ("less-than",),
    ("worse", "than"): ("worse-than",),
    ("night", "owl"): ("night-owl",),
    ("night", "person"): ("night-owl",),
    ("evening", "person"): ("night-owl",),
    ("early", "bird"): ("early-bird",),
    ("early", "riser"): ("early-bird",),
    ("morning", "person"): ("early-bird",),
    ("left", "handed"): ("left-handed",),
    ("right", "handed"): ("right-handed",),
    ("work", "from", "home"): ("work", "remote"),
    ("work", "at", "home"): ("work", "remote"),
    ("from", "home"): ("remote",),
    ("in", "the", "office"): ("in", "office"),
    ("every", "day"): ("daily",),
    ("each", "day"): ("daily",),
    ("every", "week"): ("weekly",),
    ("every", "month"): ("monthly",),
    ("every", "year"): ("yearly",),
    ("each", "year"): ("yearly",),
    ("annually",): ("yearly",),
    # a chore, not a dish one likes ("my favourite dish")
    ("the", "dishes"): ("washing-up",),
    ("the", "washing", "up"): ("washing-up",),
    ("sci", "fi"): ("science-fiction",),
    ("scifi",): ("science-fiction",),
    ("science", "fiction"): ("science-fiction",),
    ("every", "night"): ("nightly",),
    ("wake", "up"): ("wake",),
    ("wake", "me", "up"): ("wake", "me"),
    ("suffer", "from"): ("have",),
    ("get", "up"): ("wake",),
    ("go", "to", "bed"): ("bedtime",),
    ("go", "to", "sleep"): ("bedtime",),
    ("be", "from"): ("origin",),
    ("come", "from"): ("origin",),
    ("year", "old"): ("age",),
    ("more", "than", "any", "other"): ("favourite",),
    ("big", "fan"): ("fan",),
    ("only", "child"): ("only-child",),
    ("well", "done"): ("well-done",),
    ("full", "time"): ("full-time",),
    ("part", "time"): ("part-time",),
    ("work", "as"): ("works-as",),
    ("for", "a", "living"): (),
    ("pick", "up"): ("collect",),
    ("grow", "up"): ("grow-up",),
    ("raised", "in"): ("grow-up", "in"),
    ("get", "married"): ("wedding",),
    ("would", "like"): ("want",),
    ("would", "love"): ("want",),
    ("lactose", "intolerant"): ("lactose-intolerant",),
    ("vs", "code"): ("vscode",),
    ("visual", "studio", "code"): ("vscode",),
    ("mac", "os"): ("macos",),
    ("next", "door"): ("neighbour",),
    ("next", "to"): ("beside",),
    ("across", "from"): ("opposite",),
    ("wi", "fi"): ("wifi",),
    ("last", "name"): ("surname",),
    ("family", "name"): ("surname",),
    ("this", "fall"): ("this", "autumn"),
    ("the", "fall"): ("the", "autumn"),
    ("last", "year"): ("recently",),
    ("last", "month"): ("recently",),
    ("last", "week"): ("recently",),
    ("down", "to"): ("changed", "to"),
    ("switch", "back"): ("switched",),
    ("change", "back"): ("changed",),
    ("go", "back", "to"): ("switched", "to"),
    ("a", "lot"): (),
    ("a", "bit"): (),
    # a hedge ("Grandpa kind of keeps Shabbat"), not a kind of a thing ("every kind of nut")
    ("kind", "of"): ("kind-of",),
    ("sort", "of"): ("kind-of",),
    **{
        (before, kind, "of"): (before,)
        for before in ("a", "any", "every", "this", "that", "what", "some")
        for kind in ("kind", "sort")
    },
}


def lookup(table: Mapping[str, str], word: str, stemmed: str) -> str | None:
    """The table's value for a word, tried as written and then as its stem."""
    return table.get(word) or table.get(stemmed)


def ancestors(word: str) -> frozenset[str]:
    """Broader terms a word implies (empty when it implies none)."""
    return HYPERNYMS.get(word, frozenset())


def groups_of(word: str) -> tuple[str, ...]:
    """The exclusive groups a canonical word belongs to."""
    return EXCLUSIVE_GROUPS.get(word, ())


def words_in(tables: Iterable[Mapping[str, object]]) -> frozenset[str]:
    """Every key of the given tables, for telling known words from names."""
    return frozenset(key for table in tables for key in table)
