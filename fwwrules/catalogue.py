"""The message catalogue: every text a ruling shows, in English and German, keyed by clause id.

Reasons are data (:class:`~fwwrules.rulings.Reason`: clause id, variant key, values); this is
the one place that turns them into sentences. A message id is the clause id, or
``"<clause>/<key>"`` for one of several messages of a clause. Templates use ``str.format``
fields named after the reason's values.

German uses the rulebook's terms: Sichtlinie (LoS), Deckungslinie (LoC), Deckung,
Fertigkeitswert, Effektwürfel, Rüstung, Nahkampf, gebunden, Slide, Überzahl.

Each rule family owns one section below; keep entries in the order of docs/clauses.txt.
Labels that are not rulings (the panels' controls, the words a picture writes, the threat map
and the review page) are the UI text section (:data:`UI_TEXT`), in the same shape.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal, get_args

from .refs import REF_TYPES, EdgeRef, ModelRef, PointRef, Ref, TerrainRef

Lang = Literal["en", "de"]
"""The catalogue's languages (every text has both)."""
LANGS: tuple[Lang, ...] = get_args(Lang)

Entry = Mapping[str, str]

# --- general: headlines and words the renderers share ---------------------------------------
_GENERAL: dict[str, Entry] = {
    "ruling/allowed": {
        "en": "{attacker} may attack {target} with {weapon} ({kind}).",
        "de": "{attacker} darf {target} mit {weapon} angreifen ({kind}).",
    },
    "ruling/not-allowed": {
        "en": "{attacker} may not attack {target} with {weapon}: {why}.",
        "de": "{attacker} darf {target} nicht mit {weapon} angreifen: {why}.",
    },
    "ruling/skill": {
        "en": "Skill test: {icon} skill value {value} {op} {amount} = {target}; a success needs a "
        "d20 roll of {target} or less.",
        "de": "Fertigkeitsprobe: Fertigkeitswert {icon} {value} {op} {amount} = {target}; ein "
        "Erfolg braucht einen W20-Wurf von {target} oder weniger.",
    },
    "ruling/skill-plain": {
        "en": "Skill test: {icon} skill value {value}; a success needs a d20 roll of {target} or "
        "less.",
        "de": "Fertigkeitsprobe: Fertigkeitswert {icon} {value}; ein Erfolg braucht einen "
        "W20-Wurf von {target} oder weniger.",
    },
    "ruling/skill-below-one": {
        "en": "Skill test: {icon} skill value {value} {op} {amount} = {target}; below 1, only a "
        "special icon face of the d20 succeeds.",
        "de": "Fertigkeitsprobe: Fertigkeitswert {icon} {value} {op} {amount} = {target}; unter "
        "1 gelingt sie nur mit einem Symbol auf dem W20.",
    },
    "ruling/dice": {
        "en": "Effect dice joining the roll: {dice}.",
        "de": "Effektwürfel zum Wurf: {dice}.",
    },
    "ruling/no-dice": {
        "en": "No effect dice join the roll.",
        "de": "Keine Effektwürfel kommen zum Wurf hinzu.",
    },
    "option/used": {
        "en": "Option {option} = {value} (translation note; the original reads otherwise).",
        "de": "Option {option} = {value} (Übersetzungshinweis; das Original liest es anders).",
    },
}

# --- grid/: words of the Pathfinder grid's headlines, drawing and panel ---------------------
_GRID: dict[str, Entry] = {
    # words used by headlines, the drawing and the panel
    "grid/attack/ranged": {"en": "ranged attack", "de": "Fernkampfangriff"},
    "grid/attack/melee": {"en": "melee attack", "de": "Nahkampfangriff"},
    "grid/attack/reach": {"en": "reach attack", "de": "Nahkampfangriff mit Reichweite"},
    "grid/kind/open": {"en": "open square", "de": "freies Feld"},
    "grid/kind/wall": {"en": "wall", "de": "Mauer"},
    "grid/kind/low": {"en": "low obstacle", "de": "niedriges Hindernis"},
    "grid/kind/arrow-slit": {"en": "arrow slit", "de": "Schussscharte"},
    "grid/kind/border-wall": {
        "en": "wall on a square border",
        "de": "Mauer auf einer Feldkante",
    },
    "grid/kind/creature": {"en": "creature", "de": "Kreatur"},
    "grid/verdict/clear": {"en": "clear line", "de": "freie Linie"},
    "grid/verdict/wall": {"en": "through a wall square", "de": "durch ein Mauerfeld"},
    "grid/verdict/border-wall": {
        "en": "across a border wall",
        "de": "über eine Mauer an der Feldkante",
    },
    "grid/verdict/arrow-slit": {"en": "through an arrow slit", "de": "durch eine Schussscharte"},
    "grid/verdict/low": {"en": "over a low obstacle", "de": "über ein niedriges Hindernis"},
    "grid/verdict/creature": {
        "en": "through a creature (soft)",
        "de": "durch eine Kreatur (weich)",
    },
    "grid/word/corner": {"en": "chosen corner", "de": "gewählter Eckpunkt"},
    "grid/word/attacker": {"en": "attacker", "de": "Angreifer"},
    "grid/word/target": {"en": "target", "de": "Ziel"},
    "grid/word/ignored": {"en": "ignored", "de": "ignoriert"},
    # headlines
    "grid/headline/none": {
        "en": "{target} has no cover against the {attack} of {attacker}.",
        "de": "{target} hat keine Deckung gegen den {attack} von {attacker}.",
    },
    "grid/headline/soft": {
        "en": "{target} has soft cover against the {attack} of {attacker}: +{ac} AC, no Reflex "
        "bonus.",
        "de": "{target} hat weiche Deckung gegen den {attack} von {attacker}: +{ac} auf die RK, "
        "kein Bonus auf Reflexwürfe.",
    },
    "grid/headline/partial": {
        "en": "{target} has cover against the {attack} of {attacker}; partial cover is suggested "
        "(the GM decides): +{ac} AC, +{reflex} on Reflex saves.",
        "de": "{target} hat Deckung gegen den {attack} von {attacker}; vorgeschlagen wird "
        "teilweise Deckung (die SL entscheidet): +{ac} auf die RK, +{reflex} auf Reflexwürfe.",
    },
    "grid/headline/cover": {
        "en": "{target} has cover against the {attack} of {attacker}: +{ac} AC, +{reflex} on "
        "Reflex saves.",
        "de": "{target} hat Deckung gegen den {attack} von {attacker}: +{ac} auf die RK, "
        "+{reflex} auf Reflexwürfe.",
    },
    "grid/headline/improved": {
        "en": "{target} has improved cover against the {attack} of {attacker}: +{ac} AC, "
        "+{reflex} on Reflex saves.",
        "de": "{target} hat verbesserte Deckung gegen den {attack} von {attacker}: +{ac} auf die "
        "RK, +{reflex} auf Reflexwürfe.",
    },
    "grid/headline/total": {
        "en": "{target} has total cover against {attacker}: no {attack} is possible.",
        "de": "{target} hat vollständige Deckung gegen {attacker}: Es ist kein {attack} möglich.",
    },
    "grid/headline/out-of-reach": {
        "en": "But {target} is out of reach of {attacker}: the attack is not allowed.",
        "de": "{target} steht aber außerhalb der Reichweite von {attacker}: kein Angriff möglich.",
    },
}


# --- the clauses: one record per clause id, every text of it ----------------------------------


@dataclass(frozen=True, slots=True)
class ClauseText:
    """Every text of one clause of docs/rules.md, in English and German: the rule stated in the
    project's own words (never the rulebook's sentences; docs/rules.md and the review page show
    it), the messages its reasons render, the short phrases a refused attack's headline gives,
    and the label of the skill modifier the clause gives, if it gives one.

    The ids stay those of the flat tables built from the records: a message is
    ``"<clause>/<key>"`` (key ``""``: the clause id alone) in :data:`MESSAGES`, a headline phrase
    ``"why/<message id>"`` (key ``""``: ``"why/<clause>"``), the rule statement ``rule:<clause>``
    (:data:`CLAUSE_RULES`) and the modifier's label ``word:modifier/<clause>`` (:data:`WORDS`).
    A clause that gives a skill modifier must have a ``modifier`` label (a test checks every
    clause a ruling's modifiers name): a list of modifiers shows ``−2 (<label>)``.

    Adding a rule adds one record to :data:`CLAUSE_TEXTS`, where the rulebook orders it; the
    clause list ``docs/clauses.txt`` and ``docs/rules.md`` are generated from the records
    (``make docs``).
    """

    clause: str
    rule: Entry
    messages: Mapping[str, Entry] = field(default_factory=dict)
    why: Mapping[str, Entry] = field(default_factory=dict)
    modifier: Entry | None = None

    def message_ids(self) -> dict[str, Entry]:
        """The clause's messages by message id (``clause`` or ``clause/key``).

        >>> sorted(clause_text("cover.huge").message_ids())[:2]
        ['cover.huge', 'cover.huge/engaged']
        """
        return {_joined_id(self.clause, k): v for k, v in self.messages.items()}

    def why_ids(self) -> dict[str, Entry]:
        """The clause's headline phrases by id (``why/<clause>`` or ``why/<clause>/<key>``)."""
        return {"why/" + _joined_id(self.clause, k): v for k, v in self.why.items()}


def _joined_id(clause: str, key: str) -> str:
    return f"{clause}/{key}" if key else clause


CLAUSE_TEXTS: tuple[ClauseText, ...] = (
    # --- size.* -------------------------------------------------------------------------------
    ClauseText(
        "size.classes",
        rule={
            "en": "A model's size class comes from its base diameter: under 40 mm Normal, 40 mm "
            "up to under 60 mm Large, 60 mm or more Huge.",
            "de": "Die Größenklasse eines Modells folgt aus dem Durchmesser seiner Base: unter 40 "
            "mm Normal, ab 40 mm bis unter 60 mm Groß, ab 60 mm Riesig.",
        },
        messages={
            "": {
                "en": "{model} stands on a base of {diameter}: {size}.",
                "de": "{model} steht auf einer Base von {diameter}: Größenklasse {size}.",
            },
        },
    ),
    # --- ranged.*, terrain.*, cover.* (ranged attacks) ----------------------------------------
    ClauseText(
        "ranged.skill",
        rule={
            "en": "To attack with a weapon the attacker needs that weapon's skill icon; without "
            "it the attack is not allowed. A thrown weapon without a range of its own reaches as "
            "far as the colour of its thrower's Throw skill icon, so two throwers of one grenade "
            "may reach differently; a thrown weapon with a range of its own keeps it (every "
            "Thrown Weapon card of the rulebook uses the Throw colour, so an own range is this "
            "project's extension, and the ruling says it used it). The d20 must roll at or under "
            "the skill value after all modifiers are added up. A value below 1 still allows the "
            "attack, but only a special icon face then succeeds.",
            "de": "Für einen Angriff braucht der Angreifer das Fertigkeitssymbol der Waffe; ohne "
            "es ist der Angriff nicht erlaubt. Eine Wurfwaffe ohne eigene Reichweite reicht so "
            "weit, wie die Farbe des Fertigkeitssymbols Wurfwaffe ihres Werfers angibt; zwei "
            "Werfer derselben Granate können also verschieden weit werfen. Eine Wurfwaffe mit "
            "eigener Reichweite behält sie (jede Wurfwaffenkarte des Regelbuchs nutzt die Farbe "
            "des Fertigkeitssymbols Wurfwaffe; eine eigene Reichweite ist also eine Erweiterung "
            "dieses Projekts, und die Entscheidung sagt, dass sie sie genutzt hat). Der W20 muss "
            "höchstens den Fertigkeitswert nach Summe aller Modifikatoren zeigen. Ein Wert unter "
            "1 erlaubt den Angriff noch, dann gelingt er aber nur mit einem Symbol.",
        },
        messages={
            "has": {
                "en": "The weapon needs the {icon} skill icon; the attacker has it at {value}.",
                "de": "Die Waffe braucht das Fertigkeitssymbol {icon}; der Angreifer hat es mit "
                "Fertigkeitswert {value}.",
            },
            "missing": {
                "en": "{attacker} lacks the {icon} skill icon, so it cannot use this weapon.",
                "de": "{attacker} hat das Fertigkeitssymbol {icon} nicht und kann die Waffe nicht "
                "einsetzen.",
            },
            "below-one": {
                "en": "The adjusted skill value is {target}, below 1: the attack is still "
                "allowed, but only a special icon face on the d20 succeeds.",
                "de": "Der angepasste Fertigkeitswert ist {target}, also unter 1: Der Angriff ist "
                "erlaubt, gelingt aber nur mit einem Symbol auf dem W20.",
            },
            "throw-range": {
                "en": "{weapon} has no range of its own: thrown by {attacker}, it reaches {ruler} "
                "({short}), the colour of its Throw skill icon.",
                "de": "{weapon} hat keine eigene Reichweite: von {attacker} geworfen, reicht sie "
                "{ruler} ({short}) weit, die Farbe seines Fertigkeitssymbols Wurfwaffe.",
            },
            "own-range": {
                "en": "{weapon} is thrown with its own range ({short}), not as far as the colour "
                "of the Throw skill icon of {attacker} ({ruler}): a thrown weapon with a range of "
                "its own is this project's extension (every Thrown Weapon card uses the Throw "
                "colour).",
                "de": "{weapon} wird mit eigener Reichweite ({short}) geworfen, nicht so weit, "
                "wie die Farbe des Fertigkeitssymbols Wurfwaffe von {attacker} angibt ({ruler}): "
                "Eine Wurfwaffe mit eigener Reichweite ist eine Erweiterung dieses Projekts (jede "
                "Wurfwaffenkarte nutzt die Farbe des Fertigkeitssymbols Wurfwaffe).",
            },
            "own-range-no-colour": {
                "en": "{weapon} is thrown with its own range ({short}): a thrown weapon with a "
                "range of its own is this project's extension (every Thrown Weapon card uses the "
                "colour of the thrower's Throw skill icon).",
                "de": "{weapon} wird mit eigener Reichweite ({short}) geworfen: Eine Wurfwaffe "
                "mit eigener Reichweite ist eine Erweiterung dieses Projekts (jede "
                "Wurfwaffenkarte nutzt die Farbe des Fertigkeitssymbols Wurfwaffe des Werfers).",
            },
            "no-throw-range": {
                "en": "{weapon} has no range of its own, so it reaches as far as the colour of "
                "the thrower's Throw skill icon; the scenario does not give that colour for "
                "{attacker}.",
                "de": "{weapon} hat keine eigene Reichweite und reicht so weit, wie die Farbe des "
                "Fertigkeitssymbols Wurfwaffe des Werfers angibt; das Szenario nennt diese Farbe "
                "für {attacker} nicht.",
            },
            "dice-cap": {
                "en": "{count} {colour} dice would join the test; at most 4 of one colour are "
                "rolled.",
                "de": "{count} Effektwürfel {colour} kämen hinzu; höchstens 4 einer Farbe werden "
                "geworfen.",
            },
        },
        why={
            "missing": {
                "en": "it lacks the {icon} skill icon",
                "de": "ihm fehlt das Fertigkeitssymbol {icon}",
            },
            "no-throw-range": {
                "en": "{weapon} has no range of its own and the colour of the Throw skill icon is "
                "not given",
                "de": "{weapon} hat keine eigene Reichweite, und die Farbe des Fertigkeitssymbols "
                "Wurfwaffe ist nicht angegeben",
            },
        },
    ),
    ClauseText(
        "ranged.range",
        rule={
            "en": "Range is measured from base edge to base edge. The short band reaches the "
            "short ruler's length from the attacker's base; the long band is the long ruler laid "
            "after it (some weapons have none). A target is in a band when any part of its base "
            "is; in both bands the attacker picks, and that band's effect dice are rolled. Beyond "
            "every band the attack is not allowed.",
            "de": "Reichweite wird von Base-Kante zu Base-Kante gemessen. Die kurze Reichweite "
            "reicht so weit wie das Lineal der kurzen Reichweite ab der Base des Angreifers; die "
            "lange ist das nächste Lineal, dahinter angelegt (manche Waffen haben keine). Ein "
            "Ziel ist in einer Reichweite, wenn irgendein Teil seiner Base darin liegt; in beiden "
            "wählt der Angreifer, und es gelten deren Effektwürfel. Jenseits aller Reichweiten "
            "ist der Angriff nicht erlaubt.",
        },
        messages={
            "in": {
                "en": "The target is {distance} away ({measure}): {band}.",
                "de": "Das Ziel ist {distance} entfernt ({measure}): {band}.",
            },
            "both": {
                "en": "The target is {distance} away and its base lies in both bands; the "
                "attacker chooses ({band} taken).",
                "de": "Das Ziel ist {distance} entfernt und seine Base liegt in beiden "
                "Reichweiten; der Angreifer wählt ({band} gewählt).",
            },
            "out": {
                "en": "The target is {distance} away, beyond the long band that ends at {long}: "
                "out of range.",
                "de": "Das Ziel ist {distance} entfernt, jenseits der langen Reichweite (bis "
                "{long}): außer Reichweite.",
            },
            "out-short-only": {
                "en": "The target is {distance} away; the weapon has only a short band, ending at "
                "{short}: out of range.",
                "de": "Das Ziel ist {distance} entfernt; die Waffe hat nur eine kurze Reichweite "
                "bis {short}: außer Reichweite.",
            },
            "band-unavailable": {
                "en": "The {band} band was asked for, but the target is not in it.",
                "de": "Die {band} war gewünscht, aber das Ziel liegt nicht darin.",
            },
        },
        why={
            "": {"en": "out of range", "de": "außer Reichweite"},
        },
    ),
    ClauseText(
        "ranged.min-range",
        rule={
            "en": "A weapon with a minimum range has a short band that starts at that distance. A "
            "target whose whole base lies closer than the minimum range is out of range.",
            "de": "Bei einer Waffe mit Mindestreichweite beginnt die kurze Reichweite erst in "
            "diesem Abstand. Ein Ziel, dessen ganze Base näher liegt, ist außer Reichweite.",
        },
        messages={
            "inside": {
                "en": "{weapon} has a minimum range of {min_range}; the target's whole base lies "
                "inside it (its far edge is {farthest} away): out of range.",
                "de": "{weapon} hat eine Mindestreichweite von {min_range}; die ganze Base des "
                "Ziels liegt darin (ihre ferne Kante ist {farthest} entfernt): außer Reichweite.",
            },
            "reaches": {
                "en": "The weapon's minimum range is {min_range}; the short band starts there, "
                "and the target's base reaches it.",
                "de": "Die Mindestreichweite der Waffe beträgt {min_range}; dort beginnt die "
                "kurze Reichweite, und die Base des Ziels reicht bis dorthin.",
            },
        },
        why={
            "": {"en": "inside the minimum range", "de": "innerhalb der Mindestreichweite"},
        },
    ),
    ClauseText(
        "ranged.los",
        rule={
            "en": "There is line of sight when, seen from above, some straight line joins a point "
            "of the attacker's base to a point of the target without crossing anything that "
            "blocks sight. Touching an outline (a grazed corner, a line along an edge) does not "
            "block. A target may also be a terrain piece or a point.",
            "de": "Sichtlinie besteht, wenn von oben gesehen eine gerade Linie einen Punkt der "
            "Base des Angreifers mit einem Punkt des Ziels verbindet, ohne etwas "
            "Sichtblockierendes zu kreuzen. Eine Kontur nur zu berühren (eine gestreifte Ecke, "
            "eine Linie entlang einer Kante) blockiert nicht. Ziel kann auch ein Geländestück "
            "oder ein Punkt sein.",
        },
        messages={
            "clear": {
                "en": "Line of sight: a straight line joins {attacker}'s base to {target} without "
                "crossing anything that blocks it.",
                "de": "Sichtlinie: Eine gerade Linie verbindet die Base von {attacker} mit "
                "{target}, ohne sichtblockierendes Gelände zu kreuzen.",
            },
            "blocked": {
                "en": "No line of sight: every straight line from {attacker}'s base to {target} "
                "is blocked (by {blockers}).",
                "de": "Keine Sichtlinie: Jede gerade Linie von der Base von {attacker} zu "
                "{target} wird blockiert (durch {blockers}).",
            },
        },
        why={
            "": {"en": "no line of sight", "de": "keine Sichtlinie"},
        },
    ),
    ClauseText(
        "ranged.los.models",
        rule={
            "en": "Normal and Large models never block line of sight.",
            "de": "Modelle der Größenklassen Normal und Groß blockieren die Sichtlinie nie.",
        },
        messages={
            "": {
                "en": "{model} stands in the way, but Normal and Large models never block line of "
                "sight.",
                "de": "{model} steht im Weg, aber Modelle der Größenklassen Normal und Groß "
                "blockieren die Sichtlinie nie.",
            },
        },
    ),
    ClauseText(
        "ranged.los.huge",
        rule={
            "en": "A Huge model blocks line of sight between models with smaller bases: it blocks "
            "when the smaller base of attacker and target is smaller than its own (an 80 mm model "
            "blocks the line between two 60 mm ones). A point or terrain target has no base: only "
            "the attacker's base counts.",
            "de": "Ein Modell der Größenklasse Riesig blockiert die Sichtlinie zwischen Modellen "
            "mit kleinerer Base: es blockiert, wenn die kleinere Base von Angreifer und Ziel "
            "kleiner ist als seine eigene (ein 80-mm-Modell blockiert die Linie zwischen zwei "
            "60-mm-Modellen). Ein Punkt oder Geländestück als Ziel hat keine Base: dann zählt nur "
            "die des Angreifers.",
        },
        messages={
            "": {
                "en": "{model} is a Huge model (base {diameter}) and blocks line of sight for "
                "models on smaller bases (the smaller base here: {smaller}).",
                "de": "{model} ist ein Modell der Größenklasse Riesig (Base {diameter}) und "
                "blockiert die Sichtlinie für Modelle auf kleineren Basen (die kleinere Base "
                "hier: {smaller}).",
            },
        },
    ),
    ClauseText(
        "terrain.kinds",
        rule={
            "en": "Each terrain piece is declared at set-up as blocking, cover, area (cover once "
            "the Line of Cover enters it), dense area (blocks sight; area cover for a target "
            "still seen) or scenery (no effect). A piece may declare another kind for Huge "
            "models: that kind decides sight on every line to or from a Huge model, and cover "
            "only when the target is Huge.",
            "de": "Jedes Geländestück wird beim Aufbau festgelegt: sichtblockierend, Deckung, "
            "Gebiet (Deckung, sobald die Deckungslinie hineinführt), dichtes Gebiet (blockiert "
            "die Sicht; Gebietsdeckung für ein noch sichtbares Ziel) oder Kulisse (ohne Wirkung). "
            "Ein Stück kann für Modelle der Größenklasse Riesig eine andere Art angeben: sie "
            "entscheidet die Sicht auf jeder Linie von oder zu einem solchen Modell, die Deckung "
            "nur, wenn das Ziel zur Größenklasse Riesig gehört.",
        },
        messages={
            "huge-variant": {
                "en": "{source} counts as {kind} (not {declared}) because a Huge model takes part "
                "in this shot.",
                "de": "{source} zählt als {kind} (statt {declared}), weil ein Modell der "
                "Größenklasse Riesig an diesem Schuss beteiligt ist.",
            },
            "huge-variant-sight": {
                "en": "{source} counts as {kind} (not {declared}) for line of sight, because a "
                "Huge model takes part in this shot; for cover the target is not Huge, so it "
                "keeps its normal kind.",
                "de": "{source} zählt für die Sichtlinie als {kind} (statt {declared}), weil ein "
                "Modell der Größenklasse Riesig an diesem Schuss beteiligt ist; für die Deckung "
                "behält es seine normale Art, da das Ziel nicht zur Größenklasse Riesig gehört.",
            },
        },
    ),
    ClauseText(
        "cover.line",
        rule={
            "en": "The Line of Cover joins the centres of the two bases. Each object it passes "
            "fully through (in and out again) gives −2 to the skill value; two objects give −4. "
            "Touching a corner or running along an edge is not passing through, and the object "
            "the target stands on is entered but not left: no cover.",
            "de": "Die Deckungslinie verbindet die Mittelpunkte der beiden Basen. Jedes Objekt, "
            "das sie ganz durchquert (hinein und wieder hinaus), gibt −2 auf den Fertigkeitswert; "
            "zwei Objekte −4. Eine Ecke zu berühren oder an einer Kante entlang zu laufen ist "
            "kein Durchqueren, und das Objekt, auf dem das Ziel steht, wird betreten, aber nicht "
            "verlassen: keine Deckung.",
        },
        messages={
            "crossed": {
                "en": "The Line of Cover passes right through {source} ({kind}): {modifier:+d}.",
                "de": "Die Deckungslinie verläuft vollständig durch {source} ({kind}): "
                "{modifier:+d}.",
            },
            "grazed": {
                "en": "The Line of Cover only touches {source}; touching is not passing through.",
                "de": "Die Deckungslinie berührt {source} nur; Berühren ist kein Durchqueren.",
            },
            "entered-only": {
                "en": "The Line of Cover enters {source} but does not leave it (the target stands "
                "on it): no cover.",
                "de": "Die Deckungslinie tritt in {source} ein, aber nicht wieder aus (das Ziel "
                "steht darauf): keine Deckung.",
            },
            "none": {
                "en": "Nothing along the Line of Cover gives cover.",
                "de": "Nichts entlang der Deckungslinie gewährt Deckung.",
            },
        },
        modifier={"en": "cover", "de": "Deckung"},
    ),
    ClauseText(
        "cover.shooter-contact",
        rule={
            "en": "Cover that touches the shooter's base does not count, each piece judged on its "
            "own.",
            "de": "Deckung, die die Base des Schützen berührt, zählt nicht; jedes Stück wird für "
            "sich beurteilt.",
        },
        messages={
            "": {
                "en": "{source} touches the shooter's base, so it is ignored as cover.",
                "de": "{source} berührt die Base des Schützen und wird als Deckung ignoriert.",
            },
        },
    ),
    ClauseText(
        "cover.armor",
        rule={
            "en": "A target in cover gets +1 armor, once, however many objects cover it. vts: one "
            "Armor Boost instead.",
            "de": "Ein Ziel in Deckung erhält einmal +1 Rüstung, gleich wie viele Objekte es "
            "decken. vts: stattdessen ein „Armor Boost“.",
        },
        messages={
            "core": {
                "en": "The target is in cover: its armor rises by 1 (once, however many objects).",
                "de": "Das Ziel ist in Deckung: Seine Rüstung steigt um 1 (einmal, egal wie viele "
                "Objekte).",
            },
            "vts": {
                "en": "The target is in cover: it gets one Armor Boost for this attack (Vault-Tec "
                "Simulator).",
                "de": "Das Ziel ist in Deckung: Es erhält für diesen Angriff einen „Armor Boost“ "
                "(Vault-Tec Simulator).",
            },
        },
    ),
    ClauseText(
        "cover.area",
        rule={
            "en": "Area terrain gives cover as soon as the Line of Cover enters it; it need not "
            "leave. A target whose base reaches into a wood while the line stays outside gets no "
            "cover from it, and an area touching the shooter's base is ignored.",
            "de": "Gebietsgelände gibt Deckung, sobald die Deckungslinie hineinführt; sie muss es "
            "nicht verlassen. Ein Ziel, dessen Base in einen Wald ragt, während die Linie draußen "
            "bleibt, erhält davon keine Deckung, und ein Gebiet, das die Base des Schützen "
            "berührt, zählt nicht.",
        },
        messages={
            "": {
                "en": "The Line of Cover enters the area terrain {source}; entering is enough: "
                "{modifier:+d}.",
                "de": "Die Deckungslinie tritt in das Gebietsgelände {source} ein; das genügt: "
                "{modifier:+d}.",
            },
        },
        modifier={"en": "area terrain", "de": "Gebietsgelände"},
    ),
    ClauseText(
        "cover.models",
        rule={
            "en": "Normal and Large models that are not on the shooter's side give cover like "
            "objects (the line must cross their base completely); models on the shooter's side "
            "never do.",
            "de": "Modelle der Größenklassen Normal und Groß, die nicht zur Seite des Schützen "
            "gehören, geben Deckung wie Objekte (die Linie muss ihre Base ganz durchqueren); "
            "Modelle der eigenen Seite nie.",
        },
        messages={
            "enemy": {
                "en": "The Line of Cover passes through the base of {source}, an enemy model: "
                "{modifier:+d}.",
                "de": "Die Deckungslinie verläuft durch die Base von {source}, einem feindlichen "
                "Modell: {modifier:+d}.",
            },
            "neutral": {
                "en": "The Line of Cover passes through the base of {source}, a neutral model: "
                "{modifier:+d}.",
                "de": "Die Deckungslinie verläuft durch die Base von {source}, einem neutralen "
                "Modell: {modifier:+d}.",
            },
            "other-faction": {
                "en": "The Line of Cover passes through the base of {source}, an allied model of "
                "another faction; read by faction it gives cover: {modifier:+d}.",
                "de": "Die Deckungslinie verläuft durch die Base von {source}, einem verbündeten "
                "Modell einer anderen Fraktion; nach Fraktion gelesen gibt es Deckung: "
                "{modifier:+d}.",
            },
            "friendly": {
                "en": "{source} is on the shooter's {by} and never gives cover.",
                "de": "{source} gehört zur selben {by} wie der Schütze und gibt nie Deckung.",
            },
            "tangent": {
                "en": "The Line of Cover only touches the base of {source}: no cover.",
                "de": "Die Deckungslinie berührt die Base von {source} nur: keine Deckung.",
            },
            "by-faction": {
                "en": "Option {option} = faction: models count as friendly only within one "
                "faction (the German reading; the original says side).",
                "de": "Option {option} = faction: Modelle gelten nur innerhalb einer Fraktion als "
                "verbündet (deutsche Lesart; das Original sagt Seite).",
            },
        },
        modifier={"en": "a model in the way", "de": "ein Modell im Weg"},
    ),
    ClauseText(
        "cover.huge",
        rule={
            "en": "A Huge model gives cover to a target with a smaller base, unless that target "
            "is engaged with it.",
            "de": "Ein Modell der Größenklasse Riesig gibt einem Ziel mit kleinerer Base Deckung, "
            "außer das Ziel ist mit ihm im Nahkampf gebunden.",
        },
        messages={
            "": {
                "en": "The Line of Cover passes through {source}, a Huge model, which gives cover "
                "to smaller targets: {modifier:+d}.",
                "de": "Die Deckungslinie verläuft durch {source}, ein Modell der Größenklasse "
                "Riesig, das kleineren Zielen Deckung gibt: {modifier:+d}.",
            },
            "engaged": {
                "en": "{source} is Huge, but {target} is engaged with it: no cover from it.",
                "de": "{source} gehört zur Größenklasse Riesig, aber {target} ist mit ihm im "
                "Nahkampf gebunden: keine Deckung.",
            },
            "not-smaller": {
                "en": "{source} is Huge (base {diameter}), but the base of {target} "
                "({target_diameter}) is not smaller: no cover from it.",
                "de": "{source} gehört zur Größenklasse Riesig (Base {diameter}), aber die Base "
                "von {target} ({target_diameter}) ist nicht kleiner: keine Deckung.",
            },
            "no-base": {
                "en": "{source} is Huge, but {target} has no base to be smaller than it: no cover "
                "from it.",
                "de": "{source} gehört zur Größenklasse Riesig, aber {target} hat keine Base, die "
                "kleiner sein könnte: keine Deckung.",
            },
        },
        modifier={
            "en": "a Huge model in the way",
            "de": "ein Modell der Größenklasse Riesig im Weg",
        },
    ),
    # --- elevation.* --------------------------------------------------------------------------
    ClauseText(
        "elevation.elevated",
        rule={
            "en": "A model is Elevated over another when its base stands at least Orange (2″) "
            "higher.",
            "de": "Ein Modell ist gegenüber einem anderen erhöht, wenn seine Base mindestens "
            "Orange (2″) höher steht.",
        },
        messages={
            "yes": {
                "en": "{high} stands {difference} higher than {low}, at least Orange ({orange}): "
                "{high} is Elevated.",
                "de": "{high} steht {difference} höher als {low}, mindestens Orange ({orange}): "
                "{high} ist erhöht.",
            },
            "neither": {
                "en": "{attacker} and {target} stand {difference} apart in height, less than "
                "Orange ({orange}): neither is Elevated.",
                "de": "{attacker} und {target} stehen {difference} verschieden hoch, weniger als "
                "Orange ({orange}): keines der Modelle ist erhöht.",
            },
        },
    ),
    ClauseText(
        "elevation.significant-edge",
        rule={
            "en": "A Significant Edge is an edge of terrain where the ground drops by Orange or "
            "more.",
            "de": "Eine Signifikante Kante ist eine Geländekante, an der der Boden um Orange oder "
            "mehr abfällt.",
        },
        messages={
            "": {
                "en": "The {side} edge of {piece} drops from {top} to {bottom}, at least Orange "
                "({orange}): a Significant Edge.",
                "de": "Die {side}kante von {piece} fällt von {top} auf {bottom} ab, mindestens "
                "Orange ({orange}): eine Signifikante Kante.",
            },
        },
    ),
    ClauseText(
        "elevation.edge-blocks-los",
        rule={
            "en": "A Significant Edge blocks line of sight to and from an Elevated model standing "
            "more than Orange away from it.",
            "de": "Eine Signifikante Kante blockiert die Sichtlinie von und zu einem erhöhten "
            "Modell, das mehr als Orange von ihr entfernt steht.",
        },
        messages={
            "far": {
                "en": "{model} stands {distance} from the {side} Significant Edge of {piece}, "
                "more than Orange ({orange}): the edge blocks LoS to and from {model}.",
                "de": "{model} steht {distance} von der Signifikanten {side}kante von {piece} "
                "entfernt, mehr als Orange ({orange}): die Kante blockiert die Sichtlinie zu und "
                "von {model}.",
            },
            "near": {
                "en": "{model} stands {distance} from the {side} Significant Edge of {piece}, "
                "within Orange ({orange}): the edge does not block LoS.",
                "de": "{model} steht {distance} von der Signifikanten {side}kante von {piece} "
                "entfernt, innerhalb von Orange ({orange}): die Kante blockiert die Sichtlinie "
                "nicht.",
            },
        },
    ),
    ClauseText(
        "elevation.edge-cover",
        rule={
            "en": "Shooting at an Elevated model within Orange of a Significant Edge that the "
            "Line of Cover crosses, that edge is cover.",
            "de": "Beim Schuss auf ein erhöhtes Modell, das innerhalb von Orange an einer "
            "Signifikanten Kante steht, die die Deckungslinie kreuzt, ist diese Kante Deckung.",
        },
        messages={
            "crossed": {
                "en": "The Line of Cover crosses the {side} Significant Edge of {terrain}, within "
                "Orange of the Elevated target: {modifier:+d}.",
                "de": "Die Deckungslinie kreuzt die Signifikante {side}kante von {terrain}, "
                "innerhalb von Orange des erhöhten Ziels: {modifier:+d}.",
            },
            "near": {
                "en": "{model} is Elevated and stands {distance} from the {side} Significant Edge "
                "of {piece}, within Orange ({orange}): the edge does not block LoS and counts as "
                "cover if the Line of Cover crosses it.",
                "de": "{model} ist erhöht und steht {distance} von der Signifikanten {side}kante "
                "von {piece} entfernt, innerhalb von Orange ({orange}): die Kante blockiert die "
                "Sichtlinie nicht und zählt als Deckung, wenn die Deckungslinie sie kreuzt.",
            },
        },
        modifier={"en": "Significant Edge", "de": "Signifikante Kante"},
    ),
    ClauseText(
        "elevation.shooter-cover",
        rule={
            "en": "When an Elevated model shoots, only cover within Orange of the target counts.",
            "de": "Schießt ein erhöhtes Modell, zählt nur Deckung innerhalb von Orange um das "
            "Ziel.",
        },
        messages={
            "ignored": {
                "en": "{source} is more than Orange from the target; an Elevated shooter ignores "
                "it.",
                "de": "{source} ist mehr als Orange vom Ziel entfernt; ein erhöhter Schütze "
                "ignoriert es.",
            },
            "applies": {
                "en": "{attacker} shoots while Elevated: only cover within Orange ({orange}) of "
                "{target} counts.",
                "de": "{attacker} schießt erhöht: nur Deckung innerhalb von Orange ({orange}) um "
                "{target} zählt.",
            },
        },
    ),
    ClauseText(
        "elevation.terrain-variant",
        rule={
            "en": "A terrain piece may declare another kind for shots involving an Elevated model "
            "(a wall that blocks sight on one level may only give cover from above).",
            "de": "Ein Geländestück kann für Schüsse mit einem erhöhten Modell eine andere Art "
            "angeben (eine Mauer, die auf gleicher Höhe die Sicht blockiert, gibt von oben nur "
            "Deckung).",
        },
        messages={
            "": {
                "en": "{piece} counts as {kind} (instead of {usual}) for a shot involving an "
                "Elevated model.",
                "de": "{piece} gilt bei einem Schuss mit einem erhöhten Modell als {kind} (statt "
                "{usual}).",
            },
        },
    ),
    ClauseText(
        "elevation.standing-on",
        rule={
            "en": "A model whose centre lies on a terrain piece with a height, at that height or "
            "above, stands on it: that piece neither blocks nor covers its shots, only its "
            "Significant Edges count.",
            "de": "Ein Modell, dessen Mittelpunkt auf einem Geländestück mit Höhe liegt, in "
            "dieser Höhe oder darüber, steht darauf: das Stück blockiert und deckt seine Schüsse "
            "nicht, nur seine Signifikanten Kanten zählen.",
        },
        messages={
            "": {
                "en": "{model} stands on {piece} (height {height}): it neither blocks nor covers "
                "this shot; only its Significant Edges count.",
                "de": "{model} steht auf {piece} (Höhe {height}): es blockiert und deckt bei "
                "diesem Schuss nicht; nur seine Signifikanten Kanten zählen.",
            },
        },
    ),
    # --- melee.*, action.quick ----------------------------------------------------------------
    ClauseText(
        "melee.engaged",
        rule={
            "en": "Bases in contact (within the contact tolerance) with an opposing model are "
            "engaged. A model of a neutral faction (wild creatures, say) opposes every other "
            "faction, so contact with it engages. An engaged model may only make close combat "
            "attacks, and only against opposing models it is engaged with.",
            "de": "Basen in Kontakt (innerhalb der Kontakttoleranz) mit einem gegnerischen Modell "
            "sind im Nahkampf gebunden. Ein Modell einer neutralen Fraktion (etwa wilde "
            "Kreaturen) ist Gegner jeder anderen Fraktion, Kontakt mit ihm bindet also. Ein "
            "gebundenes Modell darf nur Nahkampfangriffe ausführen, und nur gegen gegnerische "
            "Modelle, mit denen es gebunden ist.",
        },
        messages={
            "close-combat": {
                "en": "{attacker} is engaged with {target}: this is a close combat attack.",
                "de": "{attacker} ist mit {target} im Nahkampf gebunden: das ist ein "
                "Nahkampfangriff.",
            },
            "only-engaged": {
                "en": "{attacker} is engaged (with {engaged}) and may only attack models it is "
                "engaged with, in close combat; {target} is not one of them.",
                "de": "{attacker} ist im Nahkampf gebunden (mit {engaged}) und darf nur Modelle "
                "im Nahkampf angreifen, mit denen es gebunden ist; {target} gehört nicht dazu.",
            },
            "no-contact": {
                "en": "{weapon} is a melee weapon, and {attacker} is not engaged with {target}.",
                "de": "{weapon} ist eine Nahkampfwaffe, und {attacker} ist nicht mit {target} im "
                "Nahkampf gebunden.",
            },
        },
        why={
            "only-engaged": {
                "en": "it is engaged and may attack only {engaged}",
                "de": "es ist im Nahkampf gebunden und darf nur {engaged} angreifen",
            },
            "no-contact": {
                "en": "a melee weapon needs a target engaged with the attacker",
                "de": "eine Nahkampfwaffe braucht ein Ziel, mit dem der Angreifer gebunden ist",
            },
        },
    ),
    ClauseText(
        "melee.skill",
        rule={
            "en": "A close combat attack needs the weapon's skill icon. Every model has an "
            "Improvised Weapon (melee) unless its card says otherwise, and cannot lose it.",
            "de": "Ein Nahkampfangriff braucht das Fertigkeitssymbol der Waffe. Jedes Modell hat "
            "eine improvisierte Waffe (Nahkampf), außer seine Karte sagt anderes, und kann sie "
            "nicht verlieren.",
        },
        messages={
            "melee": {
                "en": "{attacker} uses its Melee skill ({value}) with {weapon}.",
                "de": "{attacker} nutzt seinen Nahkampf-Fertigkeitswert ({value}) mit {weapon}.",
            },
            "weapon": {
                "en": "{attacker} uses its {icon} skill ({value}) with {weapon} in close combat.",
                "de": "{attacker} nutzt seinen Fertigkeitswert {icon} ({value}) mit {weapon} im "
                "Nahkampf.",
            },
            "missing": {
                "en": "{attacker} lacks the skill icon that {weapon} needs: no attack.",
                "de": "{attacker} fehlt das Fertigkeitssymbol, das {weapon} braucht: kein Angriff.",
            },
        },
        why={
            "": {
                "en": "it lacks the skill icon {weapon} needs",
                "de": "ihm fehlt das Fertigkeitssymbol, das {weapon} braucht",
            },
        },
    ),
    ClauseText(
        "melee.ranged-weapon",
        rule={
            "en": "A pistol, rifle, heavy or thrown weapon may be used in close combat as if one "
            "piece of cover were in the way: −2 skill and +1 armor for the target (vts: one Armor "
            "Boost). It rolls its short range dice, the target being in base contact. A weapon "
            "with a minimum range cannot be used in close combat. A model that shoots in reaction "
            "to being charged suffers none of these penalties (RoP p.41), within the limits of a "
            "reaction to a charge.",
            "de": "Pistole, Gewehr, schwere Waffe oder Wurfwaffe dürfen im Nahkampf eingesetzt "
            "werden, als stünde ein Stück Deckung dazwischen: −2 auf den Fertigkeitswert und +1 "
            "Rüstung für das Ziel (vts: ein „Armor Boost“). Sie würfelt die Effektwürfel ihrer "
            "kurzen Reichweite, da das Ziel in Base-Kontakt steht. Eine Waffe mit "
            "Mindestreichweite ist im Nahkampf nicht einsetzbar. Ein Modell, das als Reaktion auf "
            "einen Ansturm schießt, erleidet keinen dieser Nachteile (RoP S. 41), in den Grenzen "
            "einer Reaktion auf einen Ansturm.",
        },
        messages={
            "core": {
                "en": "{weapon} is not a melee weapon: treated as if one piece of cover affected "
                "it, {modifier:+d} skill and {target}'s armor +1.",
                "de": "{weapon} ist keine Nahkampfwaffe: als ob ein Stück Deckung wirkt, "
                "{modifier:+d} auf den Fertigkeitswert und +1 auf die Rüstung von {target}.",
            },
            "vts": {
                "en": "{weapon} is not a melee weapon: {modifier:+d} skill, and {target} gets one "
                "Armor Boost for this attack (Vault-Tec Simulator).",
                "de": "{weapon} ist keine Nahkampfwaffe: {modifier:+d} auf den Fertigkeitswert, "
                "und {target} erhält für diesen Angriff einen „Armor Boost“ (Vault-Tec Simulator).",
            },
            "charge-reaction": {
                "en": "{attacker} shoots {weapon} in reaction to being charged by {target}: none "
                "of the penalties for a ranged weapon in close combat apply (no skill penalty, no "
                "extra armor for the target).",
                "de": "{attacker} schießt mit {weapon} als Reaktion auf den Ansturm von {target}: "
                "keiner der Nachteile einer Fernkampfwaffe im Nahkampf gilt (kein Abzug auf den "
                "Fertigkeitswert, keine zusätzliche Rüstung für das Ziel).",
            },
            "charge-reaction-melee": {
                "en": "The attack is a reaction to a charge, but {weapon} is a melee weapon: the "
                "exception for shots reacting to a charge changes nothing.",
                "de": "Der Angriff ist eine Reaktion auf einen Ansturm, aber {weapon} ist eine "
                "Nahkampfwaffe: die Ausnahme für Schüsse als Reaktion auf einen Ansturm ändert "
                "nichts.",
            },
            "charge-reaction-unused": {
                "en": "The attack is a reaction to a charge, but {attacker} is not engaged with "
                "{target}: this is no close combat attack, so there is no penalty to lift.",
                "de": "Der Angriff ist eine Reaktion auf einen Ansturm, aber {attacker} ist nicht "
                "mit {target} im Nahkampf gebunden: das ist kein Nahkampfangriff, es gibt also "
                "keinen Nachteil aufzuheben.",
            },
            "min-range": {
                "en": "{weapon} has a minimum range ({min_range}): it cannot be used in close "
                "combat.",
                "de": "{weapon} hat eine Mindestreichweite ({min_range}): im Nahkampf nicht "
                "nutzbar.",
            },
            "dice": {
                "en": "The target is in base contact, so {weapon} rolls its short range dice: "
                "{dice}.",
                "de": "Das Ziel steht in Base-Kontakt, daher nutzt {weapon} die Effektwürfel der "
                "kurzen Reichweite: {dice}.",
            },
        },
        why={
            "": {
                "en": "a weapon with a minimum range cannot be used in close combat",
                "de": "eine Waffe mit Mindestreichweite ist im Nahkampf nicht einsetzbar",
            },
        },
        modifier={"en": "ranged weapon in close combat", "de": "Fernkampfwaffe im Nahkampf"},
    ),
    ClauseText(
        "melee.charge-reaction",
        rule={
            "en": "A model that reacts to being charged (RoP p.41) makes a Quick Action and takes "
            "the Quick Action penalty: the exception for a shot reacting to a charge lifts only "
            "the close combat penalties. The reaction may only target the model whose Charge "
            "triggered it, the one holding Charge Bonus markers against the reacting model. A "
            "Charge paired with a won Battle Cry (two markers) triggers no reaction, so the "
            "exception does not apply.",
            "de": "Ein Modell, das auf einen Ansturm reagiert (RoP S. 41), führt eine "
            "Schnellaktion aus und erhält deren Abzug: Die Ausnahme für Schüsse als Reaktion auf "
            "einen Ansturm hebt nur die Nachteile im Nahkampf auf. Ziel der Reaktion darf nur das "
            "Modell sein, dessen Ansturm sie ausgelöst hat, also jenes, das Ansturm-Bonusmarker "
            "gegen das reagierende Modell hält. Ein Ansturm mit gewonnenem Kampfschrei (zwei "
            "Marker) löst keine Reaktion aus; die Ausnahme gilt dann nicht.",
        },
        messages={
            "not-charger": {
                "en": "{attacker} reacts to the charge of {charger}: a reaction may target only "
                "{charger}, not {target}.",
                "de": "{attacker} reagiert auf den Ansturm von {charger}: Eine Reaktion darf nur "
                "{charger} zum Ziel haben, nicht {target}.",
            },
            "no-charger": {
                "en": "{attacker} is said to react to a charge, but no model holds Charge Bonus "
                "markers against it: a reaction may target only the model whose Charge triggered "
                "it.",
                "de": "{attacker} soll auf einen Ansturm reagieren, aber kein Modell hält "
                "Ansturm-Bonusmarker gegen es: Ziel einer Reaktion darf nur das Modell sein, "
                "dessen Ansturm sie ausgelöst hat.",
            },
            "battle-cry": {
                "en": "{target} charged {attacker} with a won Battle Cry (two Charge Bonus "
                "markers): such a Charge triggers no reaction, so the exception for a shot "
                "reacting to a charge does not apply and the usual penalties stand.",
                "de": "{target} hat {attacker} mit gewonnenem Kampfschrei angestürmt (zwei "
                "Ansturm-Bonusmarker): Ein solcher Ansturm löst keine Reaktion aus, die Ausnahme "
                "für Schüsse als Reaktion auf einen Ansturm gilt also nicht, die üblichen "
                "Nachteile bleiben.",
            },
            "quick": {
                "en": "A reaction is a Quick Action: the Quick Action penalty applies (the "
                "exception for a shot reacting to a charge lifts only the close combat penalties).",
                "de": "Eine Reaktion ist eine Schnellaktion: Der Abzug für Schnellaktionen gilt "
                "(die Ausnahme für Schüsse als Reaktion auf einen Ansturm hebt nur die Nachteile "
                "im Nahkampf auf).",
            },
        },
        why={
            "not-charger": {
                "en": "a reaction to the charge of {charger} may target only {charger}",
                "de": "eine Reaktion auf den Ansturm von {charger} darf nur {charger} zum Ziel "
                "haben",
            },
            "no-charger": {
                "en": "no model holds Charge Bonus markers against it, so there is no charge to "
                "react to",
                "de": "kein Modell hält Ansturm-Bonusmarker gegen es, es gibt also keinen "
                "Ansturm, auf den es reagieren könnte",
            },
        },
    ),
    ClauseText(
        "melee.strength",
        rule={
            "en": "A model with Strength 7 or more adds one black (Damage) die to attacks with a "
            "melee weapon.",
            "de": "Ein Modell mit Stärke 7 oder mehr fügt Angriffen mit einer Nahkampfwaffe einen "
            "schwarzen Effektwürfel (Schaden) hinzu.",
        },
        messages={
            "": {
                "en": "{attacker} has Strength {strength} (7 or more) and uses a melee weapon: +1 "
                "black (Damage) die.",
                "de": "{attacker} hat Stärke {strength} (7 oder mehr) und nutzt eine "
                "Nahkampfwaffe: +1 schwarzer (Schaden) Effektwürfel.",
            },
        },
    ),
    ClauseText(
        "melee.super-mutant",
        rule={
            "en": "core only: a Super Mutant using a pistol or rifle in close combat may use its "
            "Melee skill value; the penalties for a ranged weapon still apply. vts has no such "
            "rule.",
            "de": "Nur core: Ein Supermutant, der im Nahkampf Pistole oder Gewehr einsetzt, darf "
            "seinen Nahkampf-Fertigkeitswert verwenden; die Nachteile der Fernkampfwaffe bleiben. "
            "vts kennt die Regel nicht.",
        },
        messages={
            "used": {
                "en": "{attacker} is a Super Mutant and uses its Melee value instead of its "
                "{weapon_icon} skill; the ranged weapon penalties still apply.",
                "de": "{attacker} ist ein Supermutant und nutzt seinen Nahkampf-Wert statt des "
                "Fertigkeitswerts {weapon_icon}; die Abzüge für Fernkampfwaffen gelten weiterhin.",
            },
            "not-used": {
                "en": "{attacker} is a Super Mutant and could use its Melee value, but its "
                "{weapon_icon} skill is higher.",
                "de": "{attacker} ist ein Supermutant und könnte seinen Nahkampf-Wert nutzen, "
                "aber sein Fertigkeitswert {weapon_icon} ist höher.",
            },
            "vts": {
                "en": "{attacker} is a Super Mutant, but the Vault-Tec Simulator removes the "
                "Super Mutant close combat rule.",
                "de": "{attacker} ist ein Supermutant, aber im Vault-Tec Simulator entfällt die "
                "Sonderregel für Supermutanten im Nahkampf.",
            },
        },
    ),
    ClauseText(
        "melee.outnumbered",
        rule={
            "en": "A model engaged with more than one opposing model is outnumbered: close combat "
            "attacks against it get one extra green (Accuracy) die.",
            "de": "Ein Modell, das mit mehr als einem gegnerischen Modell gebunden ist, ist in "
            "Unterzahl: Nahkampfangriffe gegen es erhalten einen zusätzlichen grünen Effektwürfel "
            "(Genauigkeit).",
        },
        messages={
            "": {
                "en": "{target} is outnumbered (engaged with {count}: {foes}): +1 green "
                "(Accuracy) die.",
                "de": "{target} ist in Unterzahl (im Nahkampf gebunden mit {count}: {foes}): +1 "
                "grüner (Genauigkeit) Effektwürfel (Überzahl).",
            },
        },
    ),
    ClauseText(
        "melee.charge-bonus",
        rule={
            "en": "A model that charged holds Charge Bonus markers, black or green (two after a "
            "won Battle Cry). Attacking the model it charged, each marker adds a die of its "
            "colour; attacking anything else discards them unused.",
            "de": "Ein Modell, das angestürmt ist, hält Ansturm-Bonusmarker, schwarz oder grün "
            "(zwei nach einem gewonnenen Kampfschrei). Greift es das angestürmte Modell an, fügt "
            "jeder Marker einen Würfel seiner Farbe hinzu; jeder andere Angriff verwirft sie "
            "wirkungslos.",
        },
        messages={
            "one": {
                "en": "{attacker} charged {target} and holds one Charge Bonus marker: +1 {dice} "
                "die.",
                "de": "{attacker} hat {target} angestürmt und hält einen Ansturm-Bonusmarker: +1 "
                "Effektwürfel {dice}.",
            },
            "two": {
                "en": "{attacker} charged {target} and holds two Charge Bonus markers: +1 black "
                "and +1 green die.",
                "de": "{attacker} hat {target} angestürmt und hält zwei Ansturm-Bonusmarker: +1 "
                "schwarzer und +1 grüner Effektwürfel.",
            },
            "discarded": {
                "en": "{attacker}'s Charge Bonus markers were gained against {charged}, not "
                "{target}: they are discarded without effect.",
                "de": "Die Ansturm-Bonusmarker von {attacker} gelten {charged}, nicht {target}: "
                "sie werden ohne Wirkung abgelegt.",
            },
        },
    ),
    ClauseText(
        "melee.stunned",
        rule={
            "en": "Close combat attacks against a Stunned model the attacker is engaged with get "
            "+2 skill. A Stunned model makes no free attack when an enemy withdraws. A Stunned "
            "model cannot withdraw: its only Move Action removes the Stunned marker and moves it "
            "nowhere (RoP p.48), so no free attacks are made either. It takes no other Action at "
            "all: it may not attack in close combat, shoot, throw or react, so an attack by a "
            "Stunned model is refused.",
            "de": "Nahkampfangriffe gegen ein betäubtes Modell, mit dem der Angreifer gebunden "
            "ist, erhalten +2 auf den Fertigkeitswert. Ein betäubtes Modell führt keinen freien "
            "Angriff aus, wenn sich ein Gegner zurückzieht. Ein betäubtes Modell kann sich nicht "
            "zurückziehen: Seine einzige Bewegungsaktion entfernt den Marker „Betäubt“ und bewegt "
            "es nicht (RoP S. 48), also gibt es auch keine freien Angriffe. Eine andere Aktion "
            "führt es gar nicht aus: Es darf weder im Nahkampf angreifen noch schießen, werfen "
            "oder reagieren; ein Angriff eines betäubten Modells wird also abgelehnt.",
        },
        messages={
            "attack": {
                "en": "{target} is Stunned: {modifier:+d} skill for close combat attacks against "
                "it.",
                "de": "{target} ist betäubt: {modifier:+d} auf den Fertigkeitswert für "
                "Nahkampfangriffe gegen es.",
            },
            "no-withdraw": {
                "en": "{model} is Stunned and cannot withdraw: its only Move Action removes the "
                "Stunned marker and moves it nowhere.",
                "de": "{model} ist betäubt und kann sich nicht zurückziehen: Seine einzige "
                "Bewegungsaktion entfernt den Marker „Betäubt“ und bewegt es nicht.",
            },
            "stays": {
                "en": "{model} stays engaged with {engaged}: no free attacks are made.",
                "de": "{model} bleibt mit {engaged} im Nahkampf gebunden: es gibt keine freien "
                "Angriffe.",
            },
            "no-free-attack": {
                "en": "{model} is Stunned and makes no free attack when {withdrawer} withdraws.",
                "de": "{model} ist betäubt und führt keinen freien Angriff aus, wenn sich "
                "{withdrawer} aus dem Nahkampf zurückzieht.",
            },
            "attacker": {
                "en": "{attacker} is Stunned: it takes no Action but the Move that removes its "
                "Stunned marker, so it may not attack in close combat, shoot or throw.",
                "de": "{attacker} ist betäubt: Es führt keine Aktion aus außer der Bewegung, die "
                "den Marker „Betäubt“ entfernt, darf also weder im Nahkampf angreifen noch "
                "schießen noch werfen.",
            },
            "attacker-reaction": {
                "en": "{attacker} is Stunned: it takes no Action but the Move that removes its "
                "Stunned marker, so it cannot react to a charge either.",
                "de": "{attacker} ist betäubt: Es führt keine Aktion aus außer der Bewegung, die "
                "den Marker „Betäubt“ entfernt, und kann daher auch nicht auf einen Ansturm "
                "reagieren.",
            },
        },
        why={
            "attacker": {
                "en": "it is Stunned and takes no Action but the Move that removes the marker",
                "de": "es ist betäubt und führt keine Aktion aus außer der Bewegung, die den "
                "Marker entfernt",
            },
            "attacker-reaction": {
                "en": "it is Stunned and cannot react",
                "de": "es ist betäubt und kann nicht reagieren",
            },
        },
        modifier={"en": "Stunned target", "de": "betäubtes Ziel"},
    ),
    ClauseText(
        "melee.slide",
        rule={
            "en": "core only: after a close combat attack the attacker may slide, a bonus move "
            "that keeps contact with every model it is engaged with along the whole path. It "
            "follows the movement rules (it may not pass through opposing bases nor end on a "
            "base), may bring new models into the fight and provokes no free attacks. vts has no "
            "slide.",
            "de": "Nur core: Nach einem Nahkampfangriff darf der Angreifer einen Slide machen, "
            "eine Bonusbewegung, die auf dem ganzen Weg Kontakt zu jedem gebundenen Modell hält. "
            "Er folgt den Bewegungsregeln (nicht durch gegnerische Basen, nicht auf einer Base "
            "enden), darf neue Modelle in den Nahkampf bringen und löst keine freien Angriffe "
            "aus. vts kennt keinen Slide.",
        },
        messages={
            "headline-legal": {
                "en": "{model} may slide to ({x:g}, {y:g}).",
                "de": "{model} darf per Slide nach ({x:g}; {y:g}) ziehen.",
            },
            "headline-illegal": {
                "en": "{model} may not slide to ({x:g}, {y:g}).",
                "de": "{model} darf nicht per Slide nach ({x:g}; {y:g}) ziehen.",
            },
            "vts": {
                "en": "The Vault-Tec Simulator (version 1.5) has no slide.",
                "de": "Im Vault-Tec Simulator (Version 1.5) entfällt der Slide.",
            },
            "not-engaged": {
                "en": "{model} is not engaged: a slide follows a close combat attack by an "
                "engaged model.",
                "de": "{model} ist nicht im Nahkampf gebunden: ein Slide folgt nur auf einen "
                "Nahkampfangriff eines gebundenen Modells.",
            },
            "keeps": {
                "en": "The new position keeps base contact with {models}.",
                "de": "Die neue Position hält den Base-Kontakt zu {models}.",
            },
            "breaks": {
                "en": "The new position would leave base contact with {model} (gap {gap}): a "
                "slide may not break an engagement.",
                "de": "Die neue Position verliert den Base-Kontakt zu {model} (Abstand {gap}): "
                "ein Slide darf keine Nahkampfbindung lösen.",
            },
            "overlap": {
                "en": "The new position overlaps the base of {model} by {overlap}.",
                "de": "Die neue Position überlappt die Base von {model} um {overlap}.",
            },
            "new": {
                "en": "The slide brings {models} into the engagement.",
                "de": "Der Slide bindet zusätzlich {models} in den Nahkampf.",
            },
            "path": {
                "en": "Shortest path around opposing bases: {length}.",
                "de": "Kürzester Weg um gegnerische Basen herum: {length}.",
            },
            "path-move": {
                "en": "Shortest path around opposing bases: {length}, of a Move of {move}.",
                "de": "Kürzester Weg um gegnerische Basen herum: {length}, bei einer Bewegung von "
                "{move}.",
            },
            "too-far": {
                "en": "The shortest path ({length}) is longer than the Move of {model} ({move}); "
                "detour forced by {blockers}.",
                "de": "Der kürzeste Weg ({length}) ist länger als die Bewegung von {model} "
                "({move}); Umweg erzwungen durch {blockers}.",
            },
            "no-path": {
                "en": "No path reaches the new position without passing through an opposing base; "
                "blocked by {blockers}.",
                "de": "Kein Weg erreicht die neue Position, ohne eine gegnerische Base zu "
                "durchqueren; blockiert durch {blockers}.",
            },
            "breaks-on-path": {
                "en": "No path keeps base contact with {model} all the way: at ({x:g}, {y:g}) "
                "{blocker} is in the way, and getting round it would break contact with {model}.",
                "de": "Kein Weg hält den Base-Kontakt zu {model} auf ganzer Länge: bei ({x:g}; "
                "{y:g}) steht {blocker} im Weg, und um es herum ginge der Kontakt zu {model} "
                "verloren.",
            },
            "through-engaged": {
                "en": "The path may pass through the engaged enemy ({models}).",
                "de": "Der Weg darf durch den gebundenen Gegner ({models}) führen.",
            },
            "option-needed": {
                "en": "Without this option the slide would be blocked by {blockers}.",
                "de": "Ohne diese Option wäre der Slide durch {blockers} blockiert.",
            },
            "friends": {
                "en": "Friendly bases may be passed through; only ending on one is forbidden.",
                "de": "Verbündete Basen dürfen durchquert werden; nur darauf enden ist verboten.",
            },
            "no-free-attacks": {
                "en": "A slide keeps every engagement, so it provokes no free attacks; close "
                "combat triggers fire after it.",
                "de": "Ein Slide hält jede Nahkampfbindung, daher provoziert er keine freien "
                "Angriffe; Nahkampf-Trigger werden danach ausgelöst.",
            },
            "terrain": {
                "en": "Terrain does not stop a slide here (the rules of play leave movement "
                "through terrain to the scenario).",
                "de": "Gelände hält einen Slide hier nicht auf (die Regeln überlassen Bewegung "
                "durch Gelände dem Szenario).",
            },
        },
    ),
    ClauseText(
        "melee.withdraw",
        rule={
            "en": "A model that leaves base contact with a normal Move (never a Charge) gives "
            "each model it leaves a free Quick Action attack before it moves, unless that model "
            "is still engaged with another or is Stunned. Free attacks trigger no reactions.",
            "de": "Ein Modell, das den Basenkontakt mit einer normalen Bewegung verlässt (nie mit "
            "einem Ansturm), gibt jedem verlassenen Modell vor der Bewegung einen freien Angriff "
            "als Schnellaktion, außer dieses ist noch mit einem anderen gebunden oder betäubt. "
            "Freie Angriffe lösen keine Reaktionen aus.",
        },
        messages={
            "headline-refused": {
                "en": "{model} may not withdraw from close combat: it is Stunned.",
                "de": "{model} darf sich nicht aus dem Nahkampf zurückziehen: es ist betäubt.",
            },
            "headline-none": {
                "en": "{model} may withdraw from close combat without any free attack.",
                "de": "{model} kann sich ohne freien Angriff aus dem Nahkampf zurückziehen.",
            },
            "headline-one": {
                "en": "{model} withdrawing from close combat provokes 1 free attack{who}.",
                "de": "Der Rückzug von {model} aus dem Nahkampf erlaubt 1 freien Angriff{who}.",
            },
            "headline": {
                "en": "{model} withdrawing from close combat provokes {count} free attacks{who}.",
                "de": "Der Rückzug von {model} aus dem Nahkampf erlaubt {count} freie "
                "Angriffe{who}.",
            },
            "not-engaged": {
                "en": "{model} is not engaged: moving away provokes nothing.",
                "de": "{model} ist nicht im Nahkampf gebunden: die Bewegung erlaubt keine freien "
                "Angriffe.",
            },
            "move": {
                "en": "{model} leaves base contact with a normal Move (a Charge is not allowed); "
                "the free attacks happen after it declares the move and before it moves, and "
                "trigger no reactions.",
                "de": "{model} verlässt den Base-Kontakt mit einer normalen Bewegungsaktion (kein "
                "Ansturm); die freien Angriffe folgen nach der Ankündigung und vor der Bewegung "
                "und lösen keine Reaktionen aus.",
            },
            "free-attack": {
                "en": "{model} gets a free Quick Action attack with {weapon}: skill value "
                "{value}, {modifiers}: skill target {target}.",
                "de": "{model} erhält einen freien Angriff als Schnellaktion mit {weapon}: "
                "Fertigkeitswert {value}, {modifiers}: Zielwert {target}.",
            },
            "still-engaged": {
                "en": "{model} is still engaged with {others}: no free attack.",
                "de": "{model} ist noch mit {others} im Nahkampf gebunden: kein freier Angriff.",
            },
            "no-weapon": {
                "en": "{model} has no weapon it may use against {withdrawer} ({clauses}): no free "
                "attack.",
                "de": "{model} hat keine Waffe, die es gegen {withdrawer} nutzen darf "
                "({clauses}): kein freier Angriff.",
            },
        },
    ),
    ClauseText(
        "action.quick",
        rule={
            "en": "An attack made as a Quick Action has −2 skill.",
            "de": "Ein Angriff als Schnellaktion hat −2 auf den Fertigkeitswert.",
        },
        messages={
            "": {
                "en": "A Quick Action attack: {modifier:+d} to the skill value.",
                "de": "Angriff als Schnellaktion: {modifier:+d} auf den Fertigkeitswert.",
            },
        },
        modifier={"en": "Quick Action", "de": "Schnellaktion"},
    ),
    ClauseText(
        "melee.shoot-into",
        rule={
            "en": "Shooting at a model engaged with others. core: +2 skill; on a hit the numbers "
            "1 to 4 go first to the target, then to each other model of that melee the attacker "
            "can see, round again from the target, and the red Armor die picks the model hit. The "
            "target may be friendly. vts: −2 skill instead, and a hit always strikes the target.",
            "de": "Schuss auf ein Modell, das mit anderen gebunden ist. core: +2 auf den "
            "Fertigkeitswert; bei einem Treffer gehen die Zahlen 1 bis 4 zuerst an das Ziel, dann "
            "an jedes andere Modell dieses Nahkampfs in Sicht des Angreifers, reihum wieder ab "
            "dem Ziel, und der rote Rüstungswürfel bestimmt das getroffene Modell. Das Ziel darf "
            "verbündet sein. vts: stattdessen −2, und ein Treffer trifft immer das Ziel.",
        },
        messages={
            "core": {
                "en": "{target} is engaged with {engaged}: shooting into the melee gives "
                "{modifier:+d} skill.",
                "de": "{target} ist mit {engaged} im Nahkampf gebunden: Schuss in den Nahkampf, "
                "{modifier:+d} auf den Fertigkeitswert.",
            },
            "vts": {
                "en": "{target} is engaged with {engaged}: shooting into the melee gives "
                "{modifier:+d} skill; a hit always strikes {target} (Vault-Tec Simulator).",
                "de": "{target} ist mit {engaged} im Nahkampf gebunden: Schuss in den Nahkampf, "
                "{modifier:+d} auf den Fertigkeitswert; ein Treffer trifft immer {target} "
                "(Vault-Tec Simulator).",
            },
            "numbers": {
                "en": "On a success the red Armor die picks the model hit: {numbers}.",
                "de": "Bei Erfolg bestimmt der rote Rüstungswürfel das getroffene Modell: "
                "{numbers}.",
            },
            "unseen": {
                "en": "{model} touches the target but is not in the Line of Sight of {attacker}: "
                "no number.",
                "de": "{model} steht in Base-Kontakt mit dem Ziel, aber nicht in der Sichtlinie "
                "von {attacker}: keine Zahl.",
            },
            "not-in-melee": {
                "en": "{model} touches the target but is engaged with nobody, so it is not in the "
                "melee: no number.",
                "de": "{model} steht in Base-Kontakt mit dem Ziel, ist aber mit niemandem im "
                "Nahkampf gebunden und gehört daher nicht zum Nahkampf: keine Zahl.",
            },
            "too-many": {
                "en": "Only four numbers exist: {models} get none.",
                "de": "Es gibt nur vier Zahlen: {models} erhalten keine.",
            },
            "scatter": {
                "en": "A thrown weapon uses these numbers too: the model picked is the centre of "
                "its effect; a miss scatters from {target}.",
                "de": "Eine Wurfwaffe nutzt dieselben Zahlen: das gewählte Modell ist der "
                "Mittelpunkt ihres Effekts; ein Fehlwurf streut von {target} aus.",
            },
        },
        modifier={"en": "into a melee", "de": "in den Nahkampf"},
    ),
    # --- grid.* (Pathfinder 1e) ---------------------------------------------------------------
    ClauseText(
        "grid.ranged",
        rule={
            "en": "Ranged attack on a grid: the attacker picks the corner of its square best for "
            "it; if any line from there to a corner of the target's square passes through a "
            "square or border that blocks or gives cover, the target has cover: +4 AC, +2 Reflex.",
            "de": "Fernkampf auf dem Raster: Der Angreifer wählt die für ihn beste Ecke seines "
            "Felds; führt eine Linie von dort zu einer Ecke des Zielfelds durch ein Feld oder "
            "über eine Kante, die blockiert oder Deckung gibt, hat das Ziel Deckung: +4 RK, +2 "
            "Reflex.",
        },
        messages={
            "corner": {
                "en": "{attacker} takes corner ({x}, {y}), the best one for it: {clear} of {n} "
                "lines to the corners of square ({c}, {r}) of {target} are clear.",
                "de": "{attacker} wählt den Eckpunkt ({x}; {y}), den für ihn günstigsten: {clear} "
                "von {n} Linien zu den Eckpunkten des Feldes ({c}; {r}) von {target} sind frei.",
            },
            "corner-all": {
                "en": "{attacker} takes corner ({x}, {y}), the best one for it: {clear} of {n} "
                "lines to the corners of all squares of {target} are clear.",
                "de": "{attacker} wählt den Eckpunkt ({x}; {y}), den für ihn günstigsten: {clear} "
                "von {n} Linien zu den Eckpunkten aller Felder von {target} sind frei.",
            },
            "wall": {
                "en": "A line passes through the wall square ({c}, {r}).",
                "de": "Eine Linie führt durch das Mauerfeld ({c}; {r}).",
            },
            "wall-corner": {
                "en": "A line squeezes between wall squares at the corner ({x}, {y}); touching "
                "walls act as one wall, so it is blocked.",
                "de": "Eine Linie zwängt sich beim Eckpunkt ({x}; {y}) zwischen Mauerfeldern "
                "hindurch; sich berührende Mauern gelten als eine Mauer, die Linie ist also "
                "blockiert.",
            },
            "border-wall": {
                "en": "A line crosses a wall on the square borders at ({x}, {y}).",
                "de": "Eine Linie kreuzt bei ({x}; {y}) eine Mauer auf den Feldkanten.",
            },
            "border-wall-end": {
                "en": "A line meets the end of a wall on the square borders at ({x}, {y}); judged "
                "from just inside the squares it joins, it passes on the wall's side, so the wall "
                "blocks it.",
                "de": "Eine Linie trifft bei ({x}; {y}) auf das Ende einer Mauer auf den "
                "Feldkanten; von knapp innerhalb der verbundenen Felder aus gesehen verläuft sie "
                "auf der Seite der Mauer, die Mauer blockiert sie also.",
            },
            "arrow-slit": {
                "en": "A line passes through the arrow slit in square ({c}, {r}).",
                "de": "Eine Linie führt durch die Schussscharte im Feld ({c}; {r}).",
            },
            "result-none": {
                "en": "No line from that corner passes anything that gives cover: no cover.",
                "de": "Keine Linie von diesem Eckpunkt führt durch etwas, das Deckung gibt: keine "
                "Deckung.",
            },
            "result-soft": {
                "en": "Only creatures stand on the lines: soft cover, +{ac} AC.",
                "de": "Auf den Linien stehen nur Kreaturen: weiche Deckung, +{ac} auf die RK.",
            },
            "result-cover": {
                "en": "Terrain on a line gives cover: +{ac} AC, +{reflex} on Reflex saves.",
                "de": "Gelände auf einer Linie gibt Deckung: +{ac} auf die RK, +{reflex} auf "
                "Reflexwürfe.",
            },
            "result-partial": {
                "en": "With partial cover: +{ac} AC, +{reflex} on Reflex saves.",
                "de": "Mit teilweiser Deckung: +{ac} auf die RK, +{reflex} auf Reflexwürfe.",
            },
        },
    ),
    ClauseText(
        "grid.melee",
        rule={
            "en": "Melee against an adjacent target: cover only when a line from a corner of the "
            "attacker's square to the target's square crosses a wall. Attacks with reach, and "
            "melee attacks on a target that is not adjacent, are judged as ranged attacks.",
            "de": "Nahkampf gegen ein angrenzendes Ziel: Deckung nur, wenn eine Linie von einer "
            "Ecke des Angreiferfelds zum Zielfeld eine Mauer kreuzt. Angriffe mit Reichweite und "
            "Nahkampfangriffe auf ein nicht angrenzendes Ziel werden wie Fernkampf beurteilt.",
        },
        messages={
            "adjacent-clear": {
                "en": "{target} is adjacent; none of the {n} lines from the corners of square "
                "({c}, {r}) of {attacker} to the square of {target} crosses a wall.",
                "de": "{target} steht angrenzend; keine der {n} Linien von den Eckpunkten des "
                "Feldes ({c}; {r}) von {attacker} zum Feld von {target} kreuzt eine Mauer.",
            },
            "adjacent-wall": {
                "en": "{target} is adjacent, and a line from a corner of square ({c}, {r}) of "
                "{attacker} to the square of {target} crosses a wall (low walls count too).",
                "de": "{target} steht angrenzend, und eine Linie von einem Eckpunkt des Feldes "
                "({c}; {r}) von {attacker} zum Feld von {target} kreuzt eine Mauer (auch niedrige "
                "Mauern zählen).",
            },
            "reach": {
                "en": "{target} is not adjacent but within the reach of {attacker}: {distance_ft} "
                "away, reach {reach_ft}. The cover of this melee attack is judged like a ranged "
                "attack.",
                "de": "{target} steht nicht angrenzend, aber in der Reichweite von {attacker}: "
                "{distance_ft} entfernt, Reichweite {reach_ft}. Deckung gegen diesen "
                "Nahkampfangriff wird wie bei einem Fernkampfangriff bestimmt.",
            },
            "reach-creature": {
                "en": "{attacker} has a reach of {reach_ft}: its attacks figure cover like ranged "
                "attacks, even against {target} standing adjacent.",
                "de": "{attacker} hat eine Reichweite von {reach_ft}: Deckung gegen seine "
                "Angriffe wird wie bei Fernkampfangriffen bestimmt, auch gegen {target}, das "
                "angrenzend steht.",
            },
            "out-of-reach": {
                "en": "{target} is {distance_ft} away, beyond the reach of {attacker}, "
                "{reach_ft}; cover is shown as for a ranged attack.",
                "de": "{target} ist {distance_ft} entfernt, außerhalb der Reichweite von "
                "{attacker}, {reach_ft}; die Deckung wird wie bei einem Fernkampfangriff gezeigt.",
            },
            "wall": {
                "en": "A line passes through the wall square ({c}, {r}).",
                "de": "Eine Linie führt durch das Mauerfeld ({c}; {r}).",
            },
            "wall-corner": {
                "en": "A line squeezes between wall squares at the corner ({x}, {y}); touching "
                "walls act as one wall, so it is blocked.",
                "de": "Eine Linie zwängt sich beim Eckpunkt ({x}; {y}) zwischen Mauerfeldern "
                "hindurch; sich berührende Mauern gelten als eine Mauer, die Linie ist also "
                "blockiert.",
            },
            "border-wall": {
                "en": "A line crosses a wall on the square borders at ({x}, {y}).",
                "de": "Eine Linie kreuzt bei ({x}; {y}) eine Mauer auf den Feldkanten.",
            },
            "border-wall-end": {
                "en": "A line meets the end of a wall on the square borders at ({x}, {y}); judged "
                "from just inside the squares it joins, it passes on the wall's side, so the wall "
                "blocks it.",
                "de": "Eine Linie trifft bei ({x}; {y}) auf das Ende einer Mauer auf den "
                "Feldkanten; von knapp innerhalb der verbundenen Felder aus gesehen verläuft sie "
                "auf der Seite der Mauer, die Mauer blockiert sie also.",
            },
            "arrow-slit": {
                "en": "A line passes through the wall with the arrow slit in square ({c}, {r}).",
                "de": "Eine Linie führt durch die Mauer mit der Schussscharte im Feld ({c}; {r}).",
            },
            "result-none": {
                "en": "No cover against this melee attack.",
                "de": "Keine Deckung gegen diesen Nahkampfangriff.",
            },
            "result-cover": {
                "en": "Cover against this melee attack: +{ac} AC, +{reflex} on Reflex saves.",
                "de": "Deckung gegen diesen Nahkampfangriff: +{ac} auf die RK, +{reflex} auf "
                "Reflexwürfe.",
            },
        },
    ),
    ClauseText(
        "grid.low-obstacle",
        rule={
            "en": "A low obstacle gives cover only to creatures within 30 ft (6 squares) of it, "
            "and the attacker ignores it when it is nearer to the obstacle than the target.",
            "de": "Ein niedriges Hindernis gibt nur Kreaturen innerhalb von 9 m (6 Felder) "
            "Deckung, und der Angreifer beachtet es nicht, wenn er ihm näher ist als das Ziel.",
        },
        messages={
            "counts": {
                "en": "The low obstacle in square ({c}, {r}) is {target_ft} from {target}, at "
                "most {limit_ft}, and {attacker}, {attacker_ft} from it, is not closer: it gives "
                "cover.",
                "de": "Das niedrige Hindernis im Feld ({c}; {r}) ist {target_ft} von {target} "
                "entfernt, höchstens {limit_ft}, und {attacker} steht mit {attacker_ft} nicht "
                "näher daran: es gibt Deckung.",
            },
            "far": {
                "en": "The low obstacle in square ({c}, {r}) is {target_ft} from {target}, more "
                "than {limit_ft}: it gives no cover.",
                "de": "Das niedrige Hindernis im Feld ({c}; {r}) ist {target_ft} von {target} "
                "entfernt, mehr als {limit_ft}: es gibt keine Deckung.",
            },
            "attacker-closer": {
                "en": "{attacker} is closer to the low obstacle in square ({c}, {r}), "
                "{attacker_ft}, than {target} is, {target_ft}: it is ignored.",
                "de": "{attacker} steht näher am niedrigen Hindernis im Feld ({c}; {r}), "
                "{attacker_ft}, als {target}, {target_ft}: es wird ignoriert.",
            },
        },
    ),
    ClauseText(
        "grid.soft",
        rule={
            "en": "Creatures, even enemies, give soft cover against ranged attacks: +4 AC, no "
            "Reflex bonus, no Stealth.",
            "de": "Kreaturen, auch Gegner, geben weiche Deckung gegen Fernkampf: +4 RK, kein "
            "Reflexbonus, keine Heimlichkeit.",
        },
        messages={
            "through": {
                "en": "A line passes through square ({c}, {r}), which {creature} occupies.",
                "de": "Eine Linie führt durch das Feld ({c}; {r}), das {creature} besetzt.",
            },
            "": {
                "en": "Soft cover from creatures: no Reflex bonus, and it does not allow Stealth.",
                "de": "Weiche Deckung durch Kreaturen: kein Bonus auf Reflexwürfe, und sie "
                "erlaubt keinen Wurf auf Heimlichkeit.",
            },
        },
    ),
    ClauseText(
        "grid.big",
        rule={
            "en": "In melee a big creature picks any square it occupies, and an attacker of a big "
            "creature picks any of its squares. A ranged attack on a big creature draws its lines "
            "to the corners of every square it occupies.",
            "de": "Im Nahkampf wählt eine große Kreatur ein beliebiges ihrer Felder, und wer eine "
            "große Kreatur angreift, eines von deren Feldern. Ein Fernkampfangriff auf eine große "
            "Kreatur zieht seine Linien zu den Ecken aller ihrer Felder.",
        },
        messages={
            "attacker": {
                "en": "{attacker} fills {size}x{size} squares and may use any of them.",
                "de": "{attacker} besetzt {size}x{size} Felder und darf jedes davon verwenden.",
            },
            "target": {
                "en": "{target} fills {size}x{size} squares; {attacker} may pick any of them.",
                "de": "{target} besetzt {size}x{size} Felder; {attacker} darf jedes davon wählen.",
            },
            "target-ranged": {
                "en": "{target} fills {size}x{size} squares; a ranged attack draws its lines to "
                "the corners of all of them (picking one square is for melee only).",
                "de": "{target} besetzt {size}x{size} Felder; ein Fernkampfangriff zieht seine "
                "Linien zu den Eckpunkten aller dieser Felder (ein Feld wählen darf man nur im "
                "Nahkampf).",
            },
        },
    ),
    ClauseText(
        "grid.partial",
        rule={
            "en": "Cover while more than half of the target can be seen is partial: +2 AC, +1 "
            "Reflex. It is the GM's call; the engine suggests it and says why.",
            "de": "Deckung, bei der mehr als die Hälfte des Ziels sichtbar ist, ist teilweise: +2 "
            "RK, +1 Reflex. Die Spielleitung entscheidet; die Engine schlägt es vor und begründet "
            "es.",
        },
        messages={
            "suggested": {
                "en": "{clear} of {n} lines from the chosen corner are clear, so more than half "
                "of {target} is visible: partial cover suggested (+2 AC, +1 Reflex instead of "
                "+4/+2). This is the GM's call.",
                "de": "{clear} von {n} Linien vom gewählten Eckpunkt sind frei, mehr als die "
                "Hälfte von {target} ist also sichtbar: vorgeschlagen wird teilweise Deckung (+2 "
                "RK, +1 Reflexwürfe statt +4/+2). Das entscheidet die SL.",
            },
            "not": {
                "en": "Only {clear} of {n} lines from the chosen corner are clear (not more than "
                "half): cover, not partial cover.",
                "de": "Nur {clear} von {n} Linien vom gewählten Eckpunkt sind frei (nicht mehr "
                "als die Hälfte): normale Deckung, keine teilweise Deckung.",
            },
        },
    ),
    ClauseText(
        "grid.total",
        rule={
            "en": "No line of effect from any point of the attacker's square to the target's "
            "square: total cover, no attack. A square closed by walls on all four borders has "
            "total cover from everywhere outside it. A line running along a wall is judged on the "
            "side of the squares it joins, as if its ends sat just inside them: a wall along a "
            "corridor does not block a line between two of its squares, a wall between two "
            "adjacent squares blocks the line along it from one to the other, and no line reaches "
            "a walled-in square by running along its walls. A line that only touches a wall at a "
            "point (its end, a corner) is not blocked by it.",
            "de": "Keine Wirkungslinie von irgendeinem Punkt des Angreiferfelds zum Zielfeld: "
            "vollständige Deckung, kein Angriff. Ein Feld, das an allen vier Kanten von Mauern "
            "umschlossen ist, hat gegen alles außerhalb vollständige Deckung. Eine Linie entlang "
            "einer Mauer wird auf der Seite der Felder beurteilt, die sie verbindet, als lägen "
            "ihre Enden knapp in diesen Feldern: Eine Mauer längs eines Gangs blockiert keine "
            "Linie zwischen zwei seiner Felder, eine Mauer zwischen zwei angrenzenden Feldern "
            "blockiert die Linie an ihr entlang von einem zum anderen, und keine Linie erreicht "
            "ein ummauertes Feld an seinen Mauern entlang. Eine Linie, die eine Mauer nur in "
            "einem Punkt berührt (an ihrem Ende, an einer Ecke), wird von ihr nicht blockiert.",
        },
        messages={
            "": {
                "en": "No straight line from any point of the space of {attacker} reaches the "
                "space of {target} without crossing a wall: total cover, no attack possible.",
                "de": "Keine gerade Linie von irgendeinem Punkt des Feldes von {attacker} "
                "erreicht das Feld von {target}, ohne eine Mauer zu kreuzen: vollständige "
                "Deckung, kein Angriff möglich.",
            },
        },
    ),
    ClauseText(
        "grid.reach",
        rule={
            "en": "A reach weapon of 10 ft (two squares) threatens the squares two away, the "
            "square two away diagonally included, though the 1-2-1 count makes it 15 ft; the "
            "ruling says so when it uses this exception.",
            "de": "Eine Waffe mit 3 m Reichweite (zwei Felder) bedroht die Felder zwei weit, auch "
            "das Feld zwei weit diagonal, obwohl es nach der 1-2-1-Zählung 4,5 m entfernt ist; "
            "die Entscheidung sagt es, wenn sie diese Ausnahme nutzt.",
        },
        messages={
            "diagonal": {
                "en": "{target} stands {distance_ft} away by the 1-2-1 count, more than the reach "
                "of {reach_ft}, but a reach of two squares also threatens the square two away "
                "diagonally (an exception the PRD allows).",
                "de": "{target} steht nach der 1-2-1-Zählung {distance_ft} entfernt, mehr als die "
                "Reichweite von {reach_ft}, doch eine Reichweite von zwei Feldern bedroht auch "
                "das diagonal übernächste Feld (eine Ausnahme, die das PRD erlaubt).",
            },
        },
    ),
    ClauseText(
        "grid.improved",
        rule={
            "en": "An arrow slit gives improved cover to a target behind it (nearer to the slit "
            "than the attacker): +8 AC, +4 Reflex, improved evasion, +10 Stealth. A creature "
            "shooting out through a slit gives its target no cover from it.",
            "de": "Eine Schießscharte gibt einem Ziel dahinter (näher an ihr als der Angreifer) "
            "verbesserte Deckung: +8 RK, +4 Reflex, verbesserte Entrinnung, +10 Heimlichkeit. Wer "
            "durch eine Scharte hinausschießt, gibt seinem Ziel dadurch keine Deckung.",
        },
        messages={
            "": {
                "en": "An arrow slit gives improved cover: +{ac} AC, +{reflex} on Reflex saves, "
                "improved evasion against effects that allow a Reflex save, and +{stealth} on "
                "Stealth checks.",
                "de": "Eine Schussscharte gibt verbesserte Deckung: +{ac} auf die RK, +{reflex} "
                "auf Reflexwürfe, Verbessertes Entrinnen gegen Effekte mit Reflexwurf und "
                "+{stealth} auf Würfe für Heimlichkeit.",
            },
            "behind": {
                "en": "{target} is behind the arrow slit in square ({c}, {r}): nearer to it, "
                "{target_ft}, than {attacker} is, {attacker_ft}.",
                "de": "{target} steht hinter der Schussscharte im Feld ({c}; {r}): näher daran, "
                "{target_ft}, als {attacker}, {attacker_ft}.",
            },
            "not-behind": {
                "en": "{target} is not behind the arrow slit in square ({c}, {r}): {attacker} is "
                "as near to it or nearer, {attacker_ft} against {target_ft}, and shoots out "
                "through it, so the slit gives {target} no cover.",
                "de": "{target} steht nicht hinter der Schussscharte im Feld ({c}; {r}): "
                "{attacker} steht ebenso nah oder näher daran, {attacker_ft} gegen {target_ft}, "
                "und schießt durch sie hinaus, die Schussscharte gibt {target} also keine Deckung.",
            },
        },
    ),
    ClauseText(
        "grid.consequences",
        rule={
            "en": "Cover forbids attacks of opportunity against the covered creature, gives +2 "
            "Reflex against effects from the other side, and allows a Stealth check.",
            "de": "Deckung verhindert Gelegenheitsangriffe gegen die gedeckte Kreatur, gibt +2 "
            "Reflex gegen Effekte von der anderen Seite und erlaubt einen Wurf auf Heimlichkeit.",
        },
        messages={
            "no-aoo": {
                "en": "{attacker} may not make attacks of opportunity against {target}, who has "
                "cover.",
                "de": "{attacker} darf gegen {target} keine Gelegenheitsangriffe ausführen, da "
                "{target} Deckung hat.",
            },
            "reflex": {
                "en": "{target} adds +{reflex} to Reflex saves against effects starting on the "
                "side of {attacker}.",
                "de": "{target} erhält +{reflex} auf Reflexwürfe gegen Effekte, die auf der Seite "
                "von {attacker} entstehen.",
            },
            "stealth": {
                "en": "The cover lets {target} attempt a Stealth check.",
                "de": "Die Deckung erlaubt {target} einen Wurf auf Heimlichkeit.",
            },
            "aoo-none": {
                "en": "Without cover, {attacker} may make attacks of opportunity against "
                "{target}, and {target} gets no Stealth check from cover.",
                "de": "Ohne Deckung darf {attacker} Gelegenheitsangriffe gegen {target} "
                "ausführen, und {target} erhält durch Deckung keinen Wurf auf Heimlichkeit.",
            },
            "aoo-soft": {
                "en": "Soft cover counts against ranged attacks only: attacks of opportunity "
                "against {target} stay possible, and it allows no Stealth check.",
                "de": "Weiche Deckung zählt nur gegen Fernkampfangriffe: Gelegenheitsangriffe "
                "gegen {target} bleiben möglich, und sie erlaubt keinen Wurf auf Heimlichkeit.",
            },
        },
    ),
)
"""Every clause's texts, in the order of docs/rules.md (``docs/clauses.txt`` is generated
from it by ``make docs``)."""

# --- translation notes and interpretation options ------------------------------------------
# Where the German fan translation and the original Rules of Play read differently (see
# fwwrules.translation for the data: clauses, options, boards). Keys: "note-N/<part>" with the
# parts topic, german, original, engine; "option/<name>" for the scenario's options.
NOTES: dict[str, Entry] = {
    "note-1/topic": {"en": "The Normal base", "de": "Die Base der Größenklasse Normal"},
    "note-1/german": {
        "en": "The Normal base is 30 mm.",
        "de": "Die Base der Größenklasse Normal misst 30 mm.",
    },
    "note-1/original": {
        "en": "The Normal base is 32 mm.",
        "de": "Die Base der Größenklasse Normal misst 32 mm.",
    },
    "note-1/engine": {
        "en": "Sizes are classes by diameter: 30 mm and 32 mm are both Normal, so no rule "
        "changes; a scenario states each base as measured.",
        "de": "Größen sind Klassen nach Durchmesser: 30 mm und 32 mm sind beide normal, also "
        "ändert sich keine Regel; ein Szenario gibt jede Base so an, wie sie gemessen ist.",
    },
    "note-2/topic": {"en": "Which models give cover", "de": "Welche Modelle Deckung geben"},
    "note-2/german": {
        "en": "Models of another faction than the shooter's give cover.",
        "de": "Modelle einer anderen Fraktion als der des Schützen geben Deckung.",
    },
    "note-2/original": {
        "en": "Models that are not on the shooter's side give cover.",
        "de": "Modelle, die nicht zur Seite des Schützen gehören, geben Deckung.",
    },
    "note-2/engine": {
        "en": "Follows the original (cover_by: side); cover_by: faction gives the German "
        "reading. They differ when allied factions share a side.",
        "de": "Folgt dem Original (cover_by: side); cover_by: faction ergibt die deutsche "
        "Lesart. Sie unterscheiden sich, wenn verbündete Fraktionen eine Seite bilden.",
    },
    "note-3/topic": {
        "en": "A slide through the engaged enemy",
        "de": "Ein Slide durch den gebundenen Gegner",
    },
    "note-3/german": {
        "en": "The slide may pass through the enemy the model is engaged with.",
        "de": "Der Slide darf durch den Gegner führen, mit dem das Modell gebunden ist.",
    },
    "note-3/original": {
        "en": "The slide follows the movement rules, which forbid passing through opposing models.",
        "de": "Der Slide folgt den Bewegungsregeln, und die verbieten, gegnerische Modelle zu "
        "durchqueren.",
    },
    "note-3/engine": {
        "en": "Follows the original; slide_through_engaged_enemy: true gives the German "
        "reading. The path through is shorter, which matters when the move is limited.",
        "de": "Folgt dem Original; slide_through_engaged_enemy: true ergibt die deutsche "
        "Lesart. Der Weg hindurch ist kürzer, was bei begrenzter Bewegung zählt.",
    },
    "note-4/topic": {
        "en": "Cover example 4: whom the Super Mutants shoot",
        "de": "Deckungsbeispiel 4: auf wen die Supermutanten schießen",
    },
    "note-4/german": {
        "en": "The Super Mutants shoot back at the Paladin.",
        "de": "Die Supermutanten schießen auf den Paladin zurück.",
    },
    "note-4/original": {
        "en": "The Super Mutants' target is a Raider.",
        "de": "Das Ziel der Supermutanten ist ein Raider.",
    },
    "note-4/engine": {
        "en": "No ruling changes: the forest touches every shooter and is ignored, whoever "
        "stands at the target's place.",
        "de": "Kein Ergebnis ändert sich: Der Wald berührt jeden Schützen und zählt nicht, wer "
        "auch immer am Platz des Ziels steht.",
    },
    "note-5/topic": {
        "en": "Cover example 1: the shooter's name",
        "de": "Deckungsbeispiel 1: der Name des Schützen",
    },
    "note-5/german": {
        "en": "The shooter is called a Super Mutant.",
        "de": "Der Schütze heißt Supermutant.",
    },
    "note-5/original": {
        "en": "The diagram labels the shooter a Brute.",
        "de": "Das Diagramm nennt den Schützen einen Brute.",
    },
    "note-5/engine": {
        "en": "No ruling changes: a name is a label, and a Brute is a Super Mutant.",
        "de": "Kein Ergebnis ändert sich: Ein Name ist eine Beschriftung, und ein Brute ist "
        "ein Supermutant.",
    },
    "note-6/topic": {
        "en": "Shooting into a melee at a friendly model",
        "de": "Schuss in einen Nahkampf auf ein verbündetes Modell",
    },
    "note-6/german": {
        "en": "Says nothing about the target's allegiance.",
        "de": "Sagt nichts dazu, wem das Ziel angehört.",
    },
    "note-6/original": {
        "en": "The target of a shot into a melee may be a friendly model.",
        "de": "Das Ziel eines Schusses in einen Nahkampf darf ein verbündetes Modell sein.",
    },
    "note-6/engine": {
        "en": "Follows the original (the German text is silent, not contrary): allowed, with "
        "the friendly target as number 1.",
        "de": "Folgt dem Original (der deutsche Text schweigt, widerspricht aber nicht): "
        "erlaubt, mit dem verbündeten Ziel als Nummer 1.",
    },
    "reading/original": {"en": "Original reading", "de": "Lesart des Originals"},
    "reading/german": {"en": "German reading", "de": "Deutsche Lesart"},
    "reading/only": {"en": "The engine's answer", "de": "Antwort der Engine"},
    "option/contact_tolerance": {
        "en": "The largest gap between two bases that still counts as contact (default "
        "0.5 mm); the same tolerance judges cover touching the shooter.",
        "de": "Die größte Lücke zwischen zwei Basen, die noch als Kontakt zählt (Standard "
        "0,5 mm); dieselbe Toleranz gilt für Deckung, die den Schützen berührt.",
    },
    "option/cover_by": {
        "en": "side (default, the original): models not on the shooter's side give cover; "
        "faction (the German text): models of another faction do.",
        "de": "side (Standard, das Original): Modelle, die nicht zur Seite des Schützen "
        "gehören, geben Deckung; faction (der deutsche Text): Modelle anderer Fraktionen.",
    },
    "option/slide_through_engaged_enemy": {
        "en": "false (default, the original): a slide goes around every opposing base; true "
        "(the German text): it may pass through the enemy the model is engaged with.",
        "de": "false (Standard, das Original): ein Slide führt um jede gegnerische Base herum; "
        "true (der deutsche Text): er darf durch den gebundenen Gegner führen.",
    },
}

# Words that appear inside messages (values are translated through this table when a
# reason's value is one of these tokens, e.g. size classes, kinds, dice colours).
WORDS: dict[str, Entry] = {
    "normal": {"en": "Normal", "de": "Normal"},
    "large": {"en": "Large", "de": "Groß"},
    "huge": {"en": "Huge", "de": "Riesig"},
    "ranged-attack": {"en": "ranged attack", "de": "Fernkampfangriff"},
    "melee-attack": {"en": "close combat attack", "de": "Nahkampfangriff"},
    "pistol": {"en": "Pistol", "de": "Pistole"},
    "rifle": {"en": "Rifle", "de": "Gewehr"},
    "heavy": {"en": "Heavy Weapon", "de": "schwere Waffe"},
    "melee": {"en": "Melee", "de": "Nahkampf"},
    "thrown": {"en": "Throw", "de": "Wurfwaffe"},
    "short": {"en": "short range", "de": "kurze Reichweite"},
    "long": {"en": "long range", "de": "lange Reichweite"},
    "black": {"en": "black (Damage)", "de": "schwarz (Schaden)"},
    "green": {"en": "green (Accuracy)", "de": "grün (Genauigkeit)"},
    "yellow": {"en": "yellow (Armor Reduction)", "de": "gelb (Rüstungsreduktion)"},
    "blue": {"en": "blue (Special)", "de": "blau (Spezial)"},
    "blocking": {"en": "blocking terrain", "de": "sichtblockierendes Gelände"},
    "cover": {"en": "cover", "de": "Deckung"},
    "area": {"en": "area terrain", "de": "Gebietsgelände"},
    "dense-area": {"en": "dense area", "de": "dichtes Gebiet"},
    "scenery": {"en": "scenery", "de": "Kulisse"},
    "friendly": {"en": "friendly", "de": "verbündet"},
    "side": {"en": "side", "de": "Seite"},
    "faction": {"en": "faction", "de": "Fraktion"},
    "enemy": {"en": "enemy", "de": "feindlich"},
    "neutral": {"en": "neutral", "de": "neutral"},
    "north": {"en": "north", "de": "Nord"},
    "north-east": {"en": "north-east", "de": "Nordost"},
    "east": {"en": "east", "de": "Ost"},
    "south-east": {"en": "south-east", "de": "Südost"},
    "south": {"en": "south", "de": "Süd"},
    "south-west": {"en": "south-west", "de": "Südwest"},
    "west": {"en": "west", "de": "West"},
    "north-west": {"en": "north-west", "de": "Nordwest"},
    # how a range is measured (ranged.range), by the kind of target
    "edge-to-model": {"en": "edge to edge", "de": "Base-Kante zu Base-Kante"},
    "edge-to-terrain": {
        "en": "from the attacker's base edge to the piece",
        "de": "von der Base-Kante des Angreifers bis zum Geländestück",
    },
    "edge-to-point": {
        "en": "from the attacker's base edge to the point",
        "de": "von der Base-Kante des Angreifers bis zum Punkt",
    },
    "point": {"en": "point", "de": "Punkt"},
    "no-modifier": {"en": "no modifier", "de": "kein Modifikator"},
}
for _colour, _en, _de in (
    ("orange", "Orange", "Orange"),
    ("yellow", "Yellow", "Gelb"),
    ("red", "Red", "Rot"),
    ("green", "Green", "Grün"),
    ("blue", "Blue", "Blau"),
    ("black", "Black", "Schwarz"),
):
    WORDS[f"ruler-{_colour}"] = {"en": _en, "de": _de}


CLAUSES: dict[str, ClauseText] = {}
"""The record of each clause id (:data:`CLAUSE_TEXTS`, and any added by :func:`add_clause`)."""
CLAUSE_RULES: dict[str, Entry] = {}
"""The rule statement of each clause id (``rule:<clause>``), from the records."""
MESSAGES: dict[str, Entry] = {}
"""Every message by id: the general ones (headlines, the skill test's lines), then the
clauses' headline phrases and messages (from the records), then the grid's words."""


def _add(table: dict[str, Entry], entries: Mapping[str, Entry]) -> None:
    dupes = table.keys() & entries.keys()
    if dupes:
        raise ValueError(f"text ids defined twice: {sorted(dupes)}")
    table.update(entries)


def add_clause(record: ClauseText) -> None:
    """Index one clause's record: its rule statement, messages, headline phrases and modifier
    label join :data:`CLAUSE_RULES`, :data:`MESSAGES` and :data:`WORDS` under their ids
    (``ValueError`` for an id already taken). The shipped records are added at import; a test
    adding a house rule adds its record the same way (and :func:`remove_clause` after)."""
    if record.clause in CLAUSES:
        raise ValueError(f"clause {record.clause!r} defined twice")
    _add(MESSAGES, {**record.why_ids(), **record.message_ids()})
    if record.modifier is not None:
        _add(WORDS, {"modifier/" + record.clause: record.modifier})
    CLAUSES[record.clause] = record
    CLAUSE_RULES[record.clause] = record.rule


def remove_clause(clause: str) -> None:
    """Undo :func:`add_clause` (for tests that add a rule for a while)."""
    record = CLAUSES.pop(clause)
    del CLAUSE_RULES[clause]
    for key in (*record.why_ids(), *record.message_ids()):
        del MESSAGES[key]
    WORDS.pop("modifier/" + clause, None)


def clause_text(clause: str) -> ClauseText:
    """The record of a clause id; ``KeyError`` naming it when the catalogue has none."""
    try:
        return CLAUSES[clause]
    except KeyError:
        raise KeyError(f"no texts for clause {clause!r} in the catalogue") from None


def modifier_label(clause: str, lang: str) -> str:
    """What a skill modifier given by ``clause`` is called in a list of modifiers (``Quick
    Action``, ``cover``); ``KeyError`` for a clause without a ``modifier`` label, never the
    raw token.

    >>> modifier_label("action.quick", "de"), modifier_label("cover.line", "en")
    ('Schnellaktion', 'cover')
    """
    label = clause_text(clause).modifier
    if label is None:
        raise KeyError(f"clause {clause!r} gives a skill modifier but has no modifier label")
    return label[check_lang(lang)]


_add(MESSAGES, _GENERAL)
for _record in CLAUSE_TEXTS:
    add_clause(_record)
_add(MESSAGES, _GRID)


# --- UI text: labels of the panels, pictures and pages (never a ruling) --------------------
# One table for every label a reader sees besides the rulings, keyed "<surface>/<key>":
# panel/ (widgets' controls), draw/ (board pictures), threat/ (threat map), review/ (review
# page). Each surface reads its part with ui_section(); a test checks both languages.
UI_TEXT: dict[str, Entry] = {
    # --- panel/: the panels' controls (fwwrules_widgets)
    "panel/attacker": {"en": "Attacker", "de": "Angreifer"},
    "panel/target": {"en": "Target", "de": "Ziel"},
    "panel/weapon": {"en": "Weapon", "de": "Waffe"},
    "panel/attack": {"en": "Attack", "de": "Angriff"},
    "panel/band": {"en": "Range", "de": "Reichweite"},
    "panel/rules": {"en": "Rules", "de": "Regeln"},
    "panel/lang": {"en": "Language", "de": "Sprache"},
    "panel/model": {"en": "Move", "de": "Bewegen"},
    "panel/x": {"en": "x", "de": "x"},
    "panel/y": {"en": "y", "de": "y"},
    "panel/auto": {"en": "auto", "de": "automatisch"},
    "panel/short": {"en": "short", "de": "kurz"},
    "panel/long": {"en": "long", "de": "lang"},
    "panel/none": {"en": "(none)", "de": "(keins)"},
    "panel/prev": {"en": "◀ Previous", "de": "◀ Zurück"},
    "panel/next": {"en": "Next ▶", "de": "Weiter ▶"},
    "panel/withdraw": {"en": "Withdraws", "de": "Zieht sich zurück"},
    "panel/slide": {"en": "Slides", "de": "Slide"},
    "panel/shooter": {"en": "Shooter", "de": "Schütze"},
    "panel/engagements": {"en": "Engagements", "de": "Nahkampfbindungen"},
    "panel/outnumbered": {"en": "outnumbered", "de": "in Unterzahl"},
    "panel/not-engaged": {
        "en": "No model is engaged.",
        "de": "Kein Modell ist im Nahkampf gebunden.",
    },
    "panel/error": {"en": "Cannot answer", "de": "Keine Antwort möglich"},
    # --- the board editor ---------------------------------------------------------------
    "panel/tool": {"en": "Tool", "de": "Werkzeug"},
    "panel/tool-select": {"en": "Select", "de": "Auswahl"},
    "panel/tool-model": {"en": "Model", "de": "Modell"},
    "panel/tool-rect": {"en": "Rectangle", "de": "Rechteck"},
    "panel/tool-polygon": {"en": "Polygon", "de": "Polygon"},
    "panel/tool-circle": {"en": "Circle", "de": "Kreis"},
    "panel/snap": {"en": "Snap to the {step} grid", "de": "Am {step}-Raster einrasten"},
    "panel/undo": {"en": "Undo", "de": "Rückgängig"},
    "panel/redo": {"en": "Redo", "de": "Wiederholen"},
    "panel/delete": {"en": "Delete", "de": "Löschen"},
    "panel/apply": {"en": "Apply to selected", "de": "Auf Auswahl anwenden"},
    "panel/save": {"en": "Save", "de": "Speichern"},
    "panel/file": {"en": "File", "de": "Datei"},
    "panel/open-attack": {"en": "Open in attack panel", "de": "Im Angriffspanel öffnen"},
    "panel/models-head": {"en": "Model (new or selected)", "de": "Modell (neu oder ausgewählt)"},
    "panel/terrain-head": {
        "en": "Terrain (new or selected)",
        "de": "Gelände (neu oder ausgewählt)",
    },
    "panel/faction": {"en": "Faction", "de": "Fraktion"},
    "panel/name": {"en": "Name", "de": "Name"},
    "panel/base": {"en": "Base", "de": "Base"},
    "panel/diameter": {"en": "Diameter", "de": "Durchmesser"},
    "panel/skills": {"en": "Skills", "de": "Fertigkeiten"},
    "panel/weapons": {"en": "Weapons", "de": "Waffen"},
    "panel/kind": {"en": "Kind", "de": "Art"},
    "panel/height": {"en": "Height", "de": "Höhe"},
    "panel/huge": {"en": "Huge kind", "de": "Art (Riesig)"},
    "panel/elevated": {"en": "Elevated kind", "de": "Art (Erhöht)"},
    "panel/base-normal": {"en": "Normal (32 mm)", "de": "Normal (32 mm)"},
    "panel/base-large": {"en": "Large (40 mm)", "de": "Groß (40 mm)"},
    "panel/base-huge": {"en": "Huge (60 mm)", "de": "Riesig (60 mm)"},
    "panel/base-other": {"en": "other diameter", "de": "anderer Durchmesser"},
    "panel/selected": {"en": "Selected", "de": "Ausgewählt"},
    "panel/nothing-selected": {"en": "nothing", "de": "nichts"},
    "panel/valid": {"en": "The board is valid.", "de": "Das Spielfeld ist gültig."},
    "panel/invalid": {
        "en": "Not saved while these problems remain:",
        "de": "Nicht gespeichert, solange diese Probleme bestehen:",
    },
    "panel/refused": {"en": "Not done:", "de": "Nicht ausgeführt:"},
    "panel/saved": {"en": "Saved", "de": "Gespeichert"},
    "panel/export": {"en": "Export picture", "de": "Bild exportieren"},
    "panel/export-format": {"en": "Format", "de": "Format"},
    "panel/export-scale": {"en": "Size", "de": "Größe"},
    "panel/export-file": {"en": "File", "de": "Datei"},
    "panel/exported": {
        "en": "Wrote {path} ({width} × {height} px).",
        "de": "{path} geschrieben ({width} × {height} px).",
    },
    "panel/download": {"en": "Download", "de": "Herunterladen"},
    "panel/title": {"en": "Title", "de": "Titel"},
    "panel/play": {"en": "Play the slide", "de": "Slide abspielen"},
    "panel/frame": {"en": "Step", "de": "Schritt"},
    "panel/editor-hint": {
        "en": "Rectangle: drag a corner to the opposite one. Polygon: click the corners, then "
        "the first one again. Circle: press at the centre, drag to the edge. Select: drag a "
        "piece; drag the round handle to rotate.",
        "de": "Rechteck: von einer Ecke zur gegenüberliegenden ziehen. Polygon: die Ecken "
        "anklicken, dann wieder die erste. Kreis: in der Mitte drücken, zum Rand ziehen. "
        "Auswählen: ein Teil ziehen; am runden Griff ziehen, um es zu drehen.",
    },
    "panel/threat-side": {"en": "Side standing", "de": "Seite, die steht"},
    "panel/threat-layer": {"en": "Show", "de": "Anzeigen"},
    "panel/threat-step": {"en": "Step", "de": "Raster"},
    "panel/attackers": {"en": "shooters that can attack", "de": "Schützen, die angreifen können"},
    "panel/uncovered": {"en": "... without cover", "de": "... ohne Deckung"},
    "panel/best-modifier": {"en": "best modifier", "de": "bester Modifikator"},
    "panel/threat-hint": {
        "en": "Drag a shooter: the map is recomputed when you let go. Click a free spot: the "
        "rulings for a model standing there.",
        "de": "Einen Schützen ziehen: die Karte wird beim Loslassen neu berechnet. Eine freie "
        "Stelle anklicken: die Entscheidungen für ein Modell, das dort steht.",
    },
    "panel/threat-position": {"en": "A model standing at", "de": "Ein Modell bei"},
    "panel/threat-unplaceable": {
        "en": "A model cannot stand here.",
        "de": "Hier kann kein Modell stehen.",
    },
    "panel/drag-hint": {
        "en": "Drag a base on the board with the mouse (it stops at contact), or set x and y.",
        "de": "Eine Base auf dem Spielfeld mit der Maus ziehen (sie hält bei Kontakt an) "
        "oder x und y setzen.",
    },
    "panel/no-drag-hint": {
        "en": "Set x and y to move a model (install anywidget to drag bases with the mouse).",
        "de": "x und y setzen, um ein Modell zu bewegen (mit anywidget lassen sich Bases mit "
        "der Maus ziehen).",
    },
    "panel/kernel-restarted": {
        "en": "The kernel restarted: run the cell again to bring the board back.",
        "de": "Der Kernel wurde neu gestartet: die Zelle erneut ausführen, um das Spielfeld "
        "zurückzuholen.",
    },
    "panel/saved-picture": {
        "en": "A saved picture of the board: run the cell to bring the live board back.",
        "de": "Ein gespeichertes Bild des Spielfelds: die Zelle ausführen, um das Spielfeld "
        "wieder bedienen zu können.",
    },
    "panel/slide-to": {"en": "to x", "de": "nach x"},
    "panel/slide-hint": {
        "en": "Drag the dashed ghost on the board to where the slide ends, or set to x and y.",
        "de": "Den gestrichelten Umriss auf dem Spielfeld dorthin ziehen, wo der Slide endet, "
        "oder nach x und y setzen.",
    },
    "panel/zoom-in": {"en": "Zoom in (+)", "de": "Vergrößern (+)"},
    "panel/zoom-out": {"en": "Zoom out (−)", "de": "Verkleinern (−)"},
    "panel/fit-table": {"en": "Fit table", "de": "Ganzer Tisch"},
    "panel/fit-models": {"en": "Fit models", "de": "Alle Modelle"},
    "panel/zoom-help": {
        "en": "Wheel or pinch: zoom about the pointer. Drag empty board: pan. + and −: zoom.",
        "de": "Mausrad oder zwei Finger: um den Zeiger zoomen. Leeres Spielfeld ziehen: "
        "verschieben. + und −: zoomen.",
    },
    # --- draw/: words a board picture writes itself (legend entries, marks)
    "draw/board": {"en": "Board", "de": "Spielfeld"},
    "draw/x-axis": {"en": "x (mm)", "de": "x (mm)"},
    "draw/y-axis": {"en": "y (mm)", "de": "y (mm)"},
    "draw/side": {"en": "side", "de": "Seite"},
    "draw/los": {"en": "line of sight (LoS)", "de": "Sichtlinie"},
    "draw/no-los": {"en": "no LoS: blocked", "de": "keine Sichtlinie: blockiert"},
    "draw/blocker": {"en": "blocks LoS", "de": "blockiert die Sichtlinie"},
    "draw/loc": {"en": "Line of Cover (LoC)", "de": "Deckungslinie"},
    "draw/crossed": {"en": "LoC passes through: cover", "de": "Deckungslinie durchquert: Deckung"},
    "draw/grazed": {
        "en": "LoC only grazes: no cover",
        "de": "Deckungslinie streift nur: keine Deckung",
    },
    "draw/ignored": {"en": "ignored", "de": "ignoriert"},
    "draw/edge": {"en": "Significant Edge", "de": "Signifikante Kante"},
    "draw/short-band": {"en": "short range", "de": "kurze Reichweite"},
    "draw/long-band": {"en": "long range", "de": "lange Reichweite"},
    "draw/engaged": {"en": "engaged", "de": "im Nahkampf gebunden"},
    "draw/into-melee": {"en": "Armor die numbers", "de": "Zahlen des Rüstungswürfels"},
    "draw/slide-legal": {"en": "Slide: legal", "de": "Slide: erlaubt"},
    "draw/slide-illegal": {"en": "Slide: not legal", "de": "Slide: nicht erlaubt"},
    "draw/breaks": {"en": "breaks", "de": "bricht"},
    "draw/slide-breaks": {"en": "contact breaks", "de": "Kontakt reißt ab"},
    "draw/free-attack": {"en": "free attack (withdrawal)", "de": "freier Angriff (Rückzug)"},
    "draw/height": {"en": "height", "de": "Höhe"},
    "draw/orange": {"en": "Orange", "de": "Orange"},
    "draw/yellow": {"en": "Yellow", "de": "Gelb"},
    "draw/red": {"en": "Red", "de": "Rot"},
    "draw/green": {"en": "Green", "de": "Grün"},
    "draw/blue": {"en": "Blue", "de": "Blau"},
    "draw/black": {"en": "Black", "de": "Schwarz"},
    "draw/x-axis-in": {"en": "x (in)", "de": "x (Zoll)"},
    "draw/y-axis-in": {"en": "y (in)", "de": "y (Zoll)"},
    "draw/cover-mark": {"en": "cover modifier", "de": "Deckungsmodifikator"},
    "draw/key": {"en": "labels", "de": "Beschriftungen"},
    "draw/key-dropped": {
        "en": "+ {n} more labels not shown (crowded board)",
        "de": "+ {n} weitere Beschriftungen nicht gezeigt (volles Spielfeld)",
    },
    "draw/elevation": {"en": "elevation", "de": "Erhöhung"},
    "draw/rules-core": {"en": "core rules", "de": "Grundregeln"},
    "draw/rules-vts": {"en": "Vault-Tec Simulator", "de": "Vault-Tec Simulator"},
    "draw/contact-kept": {"en": "contact kept", "de": "Kontakt gehalten"},
    "draw/contact-broken": {"en": "contact broken", "de": "Kontakt verloren"},
    # --- threat/: the threat map's overlay
    "threat/attackers": {"en": "shooters that can attack", "de": "Schützen, die angreifen können"},
    "threat/uncovered": {
        "en": "shooters that can attack without cover",
        "de": "Schützen, die ohne Deckung angreifen können",
    },
    "threat/best-modifier": {
        "en": "best skill modifier of a shooter",
        "de": "bester Fertigkeitsmodifikator eines Schützen",
    },
    "threat/none": {"en": "none: safe here", "de": "keiner: hier sicher"},
    "threat/none-covered": {
        "en": "none: in cover, or safe",
        "de": "keiner: in Deckung oder sicher",
    },
    "threat/one": {"en": "1", "de": "1"},
    "threat/two": {"en": "2", "de": "2"},
    "threat/many": {"en": "3 or more", "de": "3 oder mehr"},
    "threat/no-attack": {"en": "no attack possible", "de": "kein Angriff möglich"},
    "threat/low": {"en": "−4 or worse", "de": "−4 oder schlechter"},
    "threat/mid": {"en": "−2", "de": "−2"},
    "threat/high": {"en": "0 or better", "de": "0 oder besser"},
    "threat/unplaceable": {"en": "cannot stand here", "de": "hier kein Platz"},
    "threat/title": {
        "en": "Threat map for a {base} base of side {side}",
        "de": "Bedrohungskarte für eine Base von {base} der Seite {side}",
    },
    "threat/summary": {
        "en": "Threat map for a {base} base of side {side} ({rules} rules): {n} positions, "
        "{placeable} where it can stand; {k} enemy shooters: {shooters}.",
        "de": "Bedrohungskarte für eine Base von {base} der Seite {side} (Regeln {rules}): "
        "{n} Positionen, auf {placeable} kann sie stehen; {k} feindliche Schützen: {shooters}.",
    },
    "threat/summary-count": {
        "en": "  {label}: {count} positions",
        "de": "  {label}: {count} Positionen",
    },
    "threat/summary-safe": {"en": "safe from every shooter", "de": "vor jedem Schützen sicher"},
    "threat/summary-by": {"en": "attackable by {n}", "de": "angreifbar von {n}"},
    "threat/summary-uncovered": {
        "en": "attackable without cover by at least one",
        "de": "von mindestens einem ohne Deckung angreifbar",
    },
    "threat/summary-exact": {
        "en": "({exact} of {cells} cells near a boundary were decided by the ruling itself)",
        "de": "({exact} von {cells} Zellen nahe einer Grenze hat die Entscheidung selbst "
        "berechnet)",
    },
    # --- review/: the translation review page's own labels
    "review/title": {"en": "fwwrules translation review", "de": "fwwrules Übersetzungsprüfung"},
    "review/intro": {
        "en": "Read each item, tick it when the English and German texts agree with each "
        "other and with the picture, and write what is wrong in its comment field. This "
        "browser keeps your work for this page (it is there again after a reload); “Export "
        "review” saves it as a JSON file to send on; “Import review” loads such a file: your "
        "own to continue, or another reviewer’s to see their work beside yours, under their "
        "name. Nothing leaves this page otherwise.",
        "de": "Lies jeden Punkt, hake ihn ab, wenn der englische und der deutsche Text "
        "zueinander und zum Bild passen, und schreibe, was falsch ist, in sein Kommentarfeld. "
        "Dieser Browser behält deine Arbeit an dieser Seite (nach dem Neuladen ist sie wieder "
        "da); „Prüfung exportieren“ speichert sie als JSON-Datei zum Weitergeben; „Prüfung "
        "importieren“ lädt eine solche Datei: deine eigene, um weiterzumachen, oder die einer "
        "anderen Person, um ihre Arbeit unter ihrem Namen neben deiner zu sehen. Sonst "
        "verlässt nichts diese Seite.",
    },
    "review/intro-suggest": {
        "en": "A better wording? Click into a text of the catalogue (a rule, a message, a "
        "note, a word or a label: the ones with a dashed frame under the mouse) and edit it "
        "in place. The export holds your suggestions; a maintainer turns them into a gettext "
        "file with “fwwrules review --suggestions review.json -o de.po”. The explanations "
        "under the pictures are made of these messages: the clauses they cite link to them.",
        "de": "Eine bessere Formulierung? Klicke in einen Text des Katalogs (eine Regel, eine "
        "Meldung, einen Hinweis, ein Wort oder eine Beschriftung: die mit gestricheltem Rahmen "
        "unter der Maus) und ändere ihn an Ort und Stelle. Der Export enthält deine Vorschläge; "
        "wer das Projekt pflegt, macht daraus mit „fwwrules review --suggestions review.json "
        "-o de.po“ eine gettext-Datei. Die Erklärungen unter den Bildern bestehen aus diesen "
        "Meldungen: die zitierten Klauseln verweisen auf sie.",
    },
    "review/reviewer": {"en": "Reviewer", "de": "Prüfer/in"},
    "review/export": {"en": "Export review", "de": "Prüfung exportieren"},
    "review/import": {"en": "Import review", "de": "Prüfung importieren"},
    "review/done": {"en": "checked", "de": "geprüft"},
    "review/ok": {"en": "Checked: the texts are right", "de": "Geprüft: die Texte stimmen"},
    "review/comment": {"en": "Comment", "de": "Kommentar"},
    "review/clauses": {"en": "Rules (clauses)", "de": "Regeln (Klauseln)"},
    "review/examples": {"en": "Rulebook examples", "de": "Beispiele aus den Regelbüchern"},
    "review/notes": {"en": "Translation notes", "de": "Übersetzungshinweise"},
    "review/rule": {"en": "The rule", "de": "Die Regel"},
    "review/messages": {"en": "What a ruling says", "de": "Was eine Entscheidung sagt"},
    "review/german": {"en": "German text", "de": "Deutscher Text"},
    "review/original": {"en": "Original", "de": "Original"},
    "review/engine": {"en": "Engine", "de": "Engine"},
    "review/option": {"en": "Option", "de": "Option"},
    "review/topic": {"en": "Topic", "de": "Thema"},
    "review/texts": {"en": "Words and labels", "de": "Wörter und Beschriftungen"},
    "review/general": {
        "en": "Headlines and refusals of a ruling",
        "de": "Kopfzeilen und Ablehnungsgründe einer Entscheidung",
    },
    "review/notes-words": {
        "en": "Words of the translation notes and options",
        "de": "Wörter der Übersetzungshinweise und Optionen",
    },
    "review/words": {"en": "Words inside the messages", "de": "Wörter in den Meldungen"},
    "review/surface-panel": {"en": "Labels of the panels", "de": "Beschriftungen der Panels"},
    "review/surface-draw": {"en": "Labels of the pictures", "de": "Beschriftungen der Bilder"},
    "review/surface-threat": {
        "en": "Labels of the threat map",
        "de": "Beschriftungen der Bedrohungskarte",
    },
    "review/surface-review": {"en": "Labels of this page", "de": "Beschriftungen dieser Seite"},
    "review/cites": {"en": "Clauses cited", "de": "Zitierte Klauseln"},
    "review/edit-hint": {
        "en": "Click to suggest a better wording",
        "de": "Klicken, um eine bessere Formulierung vorzuschlagen",
    },
    "review/suggested": {
        "en": "Your suggested wording (in the export).",
        "de": "Dein Formulierungsvorschlag (im Export).",
    },
    "review/revert": {"en": "Undo the suggestion", "de": "Vorschlag verwerfen"},
    "review/suggestions": {"en": "Suggested wordings: {n}", "de": "Vorschläge: {n}"},
    "review/they-suggest": {"en": "{name} suggests:", "de": "{name} schlägt vor:"},
    "review/not-done": {"en": "not checked", "de": "nicht geprüft"},
    "review/anonymous": {"en": "Reviewer {n}", "de": "Prüfer/in {n}"},
    "review/saved": {"en": "✓ Saved in this browser", "de": "✓ In diesem Browser gespeichert"},
    "review/saved-dirty": {
        "en": "✓ Saved in this browser, not yet exported",
        "de": "✓ In diesem Browser gespeichert, noch nicht exportiert",
    },
    "review/not-saved": {
        "en": "This browser keeps nothing for this page: export your work before you leave",
        "de": "Dieser Browser behält nichts für diese Seite: exportiere deine Arbeit, bevor du "
        "sie verlässt",
    },
    "review/leave": {
        "en": "Your work on this page is not exported yet.",
        "de": "Deine Arbeit an dieser Seite ist noch nicht exportiert.",
    },
    "review/restored": {
        "en": "Your work from this browser is back (items: {n}, suggested wordings: {k}).",
        "de": "Deine Arbeit aus diesem Browser ist wieder da (Punkte: {n}, Vorschläge: {k}).",
    },
    "review/other-build": {
        "en": "This browser holds your work on another version of this page.",
        "de": "Dieser Browser hat deine Arbeit an einer anderen Fassung dieser Seite.",
    },
    "review/take-over": {"en": "Take it over", "de": "Übernehmen"},
    "review/imported-other": {
        "en": "Imported the review of {name} (items: {n}, suggested wordings: {k}; not on this "
        "page, kept for the next export: {unknown}).",
        "de": "Prüfung von {name} importiert (Punkte: {n}, Vorschläge: {k}; nicht auf dieser "
        "Seite, für den nächsten Export behalten: {unknown}).",
    },
    "review/imported": {
        "en": "Imported {n} items ({unknown} not on this page, kept for the next export).",
        "de": "{n} Punkte importiert ({unknown} nicht auf dieser Seite, für den nächsten "
        "Export behalten).",
    },
    "review/bad-file": {
        "en": "Not a review file of this page (expected format {format}); nothing changed.",
        "de": "Keine Prüfdatei dieser Seite (erwartet: Format {format}); nichts geändert.",
    },
    "review/surface-conformance": {
        "en": "Labels of the conformance table",
        "de": "Beschriftungen der Konformitätstabelle",
    },
    "review/conformance": {
        "en": "Checked against the book: the conformance table",
        "de": "Am Buch geprüft: die Konformitätstabelle",
    },
    # --- conformance/: the conformance table (docs/conformance.md, tools/make_conformance.py)
    "conformance/book": {"en": "The book says", "de": "Das Buch sagt"},
    "conformance/rules-say": {
        "en": "The rules say (the project's board)",
        "de": "Die Regeln sagen (Spielfeld des Projekts)",
    },
    "conformance/engine": {"en": "fwwrules answers", "de": "fwwrules antwortet"},
    "conformance/ruling": {"en": "Ruling", "de": "Entscheidung"},
    "conformance/agrees": {"en": "agrees", "de": "stimmt überein"},
    "conformance/differs": {"en": "differs", "de": "weicht ab"},
    "conformance/yes": {"en": "yes", "de": "ja"},
    "conformance/no": {"en": "no", "de": "nein"},
    "conformance/none": {"en": "none", "de": "keine"},
    "conformance/includes": {"en": "includes {value}", "de": "enthält {value}"},
    "conformance/page": {"en": "p. {page}", "de": "S. {page}"},
    "conformance/no-page": {"en": "page not known", "de": "Seite unbekannt"},
    "conformance/no-figure": {
        "en": "the project does not know the book's figure",
        "de": "die Abbildung im Buch ist dem Projekt nicht bekannt",
    },
    "conformance/own-board": {
        "en": "not in the book: the project's own board for the rule",
        "de": "nicht im Buch: ein eigenes Spielfeld des Projekts zur Regel",
    },
    "conformance/source-RoP": {"en": "Rules of Play", "de": "Rules of Play (Grundregeln)"},
    "conformance/source-PRD": {
        "en": "Pathfinder Reference Document (web pages, no page numbers)",
        "de": "Pathfinder Reference Document (Webseiten, ohne Seitenzahlen)",
    },
    "conformance/figure-cover-1": {"en": "Cover example 1", "de": "Deckungsbeispiel 1"},
    "conformance/figure-cover-2": {"en": "Cover example 2", "de": "Deckungsbeispiel 2"},
    "conformance/figure-cover-3": {"en": "Cover example 3", "de": "Deckungsbeispiel 3"},
    "conformance/figure-cover-4": {"en": "Cover example 4", "de": "Deckungsbeispiel 4"},
    "conformance/figure-cover-4-dense": {
        "en": "Cover example 4, its forest declared dense (the project's variant)",
        "de": "Deckungsbeispiel 4, der Wald als dichtes Gebiet (Variante des Projekts)",
    },
    "conformance/figure-outnumbered-1": {
        "en": "the first example of being outnumbered",
        "de": "das erste Beispiel zur Überzahl",
    },
    "conformance/figure-outnumbered-2": {
        "en": "the second example of being outnumbered",
        "de": "das zweite Beispiel zur Überzahl",
    },
    "conformance/figure-slide": {
        "en": "the slide example (Behemoth, Dogmeat, Sole Survivor)",
        "de": "das Slide-Beispiel (Behemoth, Dogmeat, Sole Survivor)",
    },
    "conformance/figure-prd-cover": {
        "en": "the cover figure of Combat: Cover (ogre, fighter, rogue, cleric, sorcerer)",
        "de": "das Deckungsbild unter Combat: Cover (Oger, Kämpfer, Schurke, Kleriker, Zauberer)",
    },
    "conformance/m-allowed": {"en": "attack allowed", "de": "Angriff erlaubt"},
    "conformance/m-not-allowed": {"en": "refused by", "de": "abgelehnt nach"},
    "conformance/m-line-of-sight": {"en": "line of sight", "de": "Sichtlinie"},
    "conformance/m-skill-modifier": {
        "en": "skill modifier",
        "de": "Modifikator auf den Fertigkeitswert",
    },
    "conformance/m-skill-value": {"en": "skill value", "de": "Fertigkeitswert"},
    "conformance/m-skill-target": {
        "en": "adjusted skill value",
        "de": "angepasster Fertigkeitswert",
    },
    "conformance/m-armor-bonus": {"en": "armor", "de": "Rüstung"},
    "conformance/m-armor-boost": {"en": "Armor Boosts", "de": "„Armor Boosts“"},
    "conformance/m-cover": {"en": "cover from", "de": "Deckung durch"},
    "conformance/m-cover-clauses": {"en": "cover by clause", "de": "Deckung nach Klausel"},
    "conformance/m-cover-modifiers": {"en": "cover modifiers", "de": "Deckungsmodifikatoren"},
    "conformance/m-ignored": {"en": "ignored", "de": "nicht gezählt"},
    "conformance/m-green": {
        "en": "green (Accuracy) dice",
        "de": "grüne Würfel (Genauigkeit)",
    },
    "conformance/m-numbers": {
        "en": "Armor die numbers 1–4",
        "de": "Nummern 1–4 des Rüstungswürfels",
    },
    "conformance/m-number-1": {"en": "number 1", "de": "Nummer 1"},
    "conformance/m-number-4": {"en": "number 4", "de": "Nummer 4"},
    "conformance/m-numbers-2-3": {"en": "numbers 2 and 3", "de": "Nummern 2 und 3"},
    "conformance/m-legal": {"en": "slide legal", "de": "Slide erlaubt"},
    "conformance/m-breaks": {"en": "contact broken with", "de": "Kontakt verloren zu"},
    "conformance/m-overlaps": {"en": "ends on the base of", "de": "endet auf der Base von"},
    "conformance/m-new-engagements": {"en": "newly engaged", "de": "neu im Nahkampf mit"},
    "conformance/m-free-attacks": {"en": "free attacks by", "de": "freie Angriffe durch"},
    "conformance/m-free-attacks-minus-2": {
        "en": "every free attack at −2",
        "de": "jeder freie Angriff mit −2",
    },
    "conformance/m-grid-cover": {"en": "kind of cover", "de": "Art der Deckung"},
    "conformance/m-ac": {"en": "AC bonus", "de": "RK-Bonus"},
    "conformance/m-reflex": {"en": "Reflex bonus", "de": "Reflexbonus"},
    "conformance/m-procedure": {"en": "judged as", "de": "beurteilt als"},
    "conformance/m-soft": {"en": "soft cover", "de": "weiche Deckung"},
    "conformance/m-stealth": {"en": "Stealth check allowed", "de": "Heimlichkeitswurf erlaubt"},
    "conformance/m-stealth-bonus": {"en": "Stealth bonus", "de": "Heimlichkeitsbonus"},
    "conformance/m-improved-evasion": {"en": "improved evasion", "de": "verbessertes Entrinnen"},
    "conformance/m-attack-allowed": {"en": "attack allowed", "de": "Angriff erlaubt"},
    "conformance/m-aoo": {
        "en": "attacks of opportunity allowed",
        "de": "Gelegenheitsangriffe erlaubt",
    },
    "conformance/m-lines": {"en": "lines drawn", "de": "gezogene Linien"},
    "conformance/m-partial-clear": {"en": "clear lines", "de": "freie Linien"},
    "conformance/m-partial-lines": {"en": "lines judged", "de": "beurteilte Linien"},
    "conformance/grid-none": {"en": "none", "de": "keine"},
    "conformance/grid-partial": {"en": "partial cover", "de": "teilweise Deckung"},
    "conformance/grid-cover": {"en": "cover", "de": "Deckung"},
    "conformance/grid-improved": {"en": "improved cover", "de": "verbesserte Deckung"},
    "conformance/grid-total": {"en": "total cover", "de": "vollständige Deckung"},
    "conformance/grid-ranged": {"en": "a ranged attack", "de": "ein Fernkampfangriff"},
    "conformance/grid-melee": {"en": "a melee attack", "de": "ein Nahkampfangriff"},
}


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    return lang


def ui_text(key: str, lang: str) -> str:
    """A label of :data:`UI_TEXT` (``"<surface>/<key>"``) in ``lang``; ``KeyError`` for an
    unknown key, ``ValueError`` for an unknown language.

    >>> ui_text("panel/attacker", "de"), ui_text("draw/loc", "en")
    ('Angreifer', 'Line of Cover (LoC)')
    """
    return UI_TEXT[key][check_lang(lang)]


def ui_section(surface: str) -> dict[str, Entry]:
    """The labels of one surface of :data:`UI_TEXT` (``panel``, ``draw``, ``threat``,
    ``review``), keyed without the ``"<surface>/"`` prefix; empty for an unknown surface.

    >>> ui_section("review")["title"]["de"]
    'fwwrules Übersetzungsprüfung'
    """
    head = surface + "/"
    return {k.removeprefix(head): v for k, v in UI_TEXT.items() if k.startswith(head)}


TEXT_KINDS: tuple[tuple[str, Mapping[str, Entry]], ...] = (
    ("rule:", CLAUSE_RULES),
    ("note:", NOTES),
    ("word:", WORDS),
    ("ui:", UI_TEXT),
    ("", MESSAGES),
)
"""Every text of the catalogue has one id (the review page's suggestions and a gettext file's
message context use it): a message's id (``ranged.los/clear``), or a prefix naming the table
and its key: ``rule:<clause>`` (the rule statement), ``note:<key>``, ``word:<token>``,
``ui:<surface>/<key>``."""


def text_entry(text_id: str) -> Entry:
    """The texts (by language) of one catalogue text id (:data:`TEXT_KINDS`); ``KeyError`` for
    an id the catalogue does not have.

    >>> text_entry("rule:size.classes")["en"][:27], text_entry("word:huge")["de"]
    ("A model's size class comes ", 'Riesig')
    """
    for prefix, table in TEXT_KINDS:
        if text_id.startswith(prefix) and text_id[len(prefix) :] in table:
            return table[text_id[len(prefix) :]]
    raise KeyError(f"no text {text_id!r} in the catalogue")


def word(token: str, lang: str) -> str:
    """A translated word, or the token itself when it is not in :data:`WORDS`."""
    entry = WORDS.get(token)
    return token if entry is None else entry[lang]


LENGTH_KEYS: frozenset[str] = frozenset(
    {
        "distance",
        "farthest",
        "short",
        "long",
        "min_range",
        "gap",
        "overlap",
        "length",
        "move",
        "difference",
        "orange",
        "top",
        "bottom",
        "height",
    }
)
"""Value names that are lengths in the scenario's units, when the reason carries its ``units``
(or ``unit``) value; a reason without one (grid squares) keeps plain numbers.

They are shown with their unit, and in a millimetre scenario also in inches, since the rulers
are in inches: ``265.9 mm (10.47″)``; German with a decimal comma: ``265,9 mm (10,47″)``
(:func:`length`).
"""

WORD_KEYS: frozenset[str] = frozenset(
    {
        "icon",
        "weapon_icon",
        "size",
        "kind",
        "declared",
        "usual",
        "band",
        "by",
        "colour",
        "side",
        "measure",
    }
)
"""Value names that are vocabulary (skill icons, size classes, kinds, bands, colours): always
shown as the word of :data:`WORDS` in the reader's language, never as a display name, even
when a weapon or model happens to have that id (a weapon called ``rifle``)."""


MINUS = "\u2212"
"""The one minus sign of every text shown to people (``−2``, ``6 − 2 = 4``), in both languages;
JSON and reason params keep plain numbers."""

FEET_TO_METRES = 0.3
"""Grid distances in German text: the German Pathfinder rules write 5 ft as 1,5 m (so 30 ft is
9 m), not the exact 0.3048 m per foot."""


def side_name(side: str) -> str:
    """A side id as text for people shows it (legends, titles): its words capitalised.

    >>> side_name("super-mutants"), side_name("brotherhood"), side_name("raiders_2")
    ('Super Mutants', 'Brotherhood', 'Raiders 2')
    """
    return " ".join(w[:1].upper() + w[1:] for w in side.replace("_", "-").split("-") if w)


@functools.cache
def _locale(lang: str) -> Any:
    """Babel's locale data (CLDR) for a language of the catalogue, loaded on first use (Babel
    costs about 30 ms to import and load: never at ``import fwwrules``)."""
    from babel import Locale

    return Locale.parse(check_lang(lang))


def _rounded(value: float, decimals: int) -> Decimal:
    """``value`` rounded half away from zero to ``decimals`` places (as rulers are read: 1.125
    is 1.13), never ``-0``."""
    quantum = Decimal(1).scaleb(-decimals)
    rounded = Decimal(repr(float(value))).quantize(quantum, rounding=ROUND_HALF_UP)
    return rounded if rounded else Decimal(0)


def _pattern(decimals: int) -> str:
    """A CLDR number pattern: up to ``decimals`` places, trailing zeros dropped, no grouping."""
    return "0." + "#" * decimals if decimals > 0 else "0"


def number(value: float, decimals: int, lang: str) -> str:
    """``value`` rounded half away from zero to ``decimals`` places, trailing zeros dropped,
    without thousands separators, in the locale's digits and decimal mark (Babel, CLDR data:
    German has a decimal comma); a negative number with the minus sign :data:`MINUS` in every
    language (the project's typography, not the locale's hyphen-minus).

    >>> number(10.5, 1, "de"), number(2.0, 1, "en"), number(-0.25, 2, "de")
    ('10,5', '2', '−0,25')
    >>> number(1.125, 2, "en"), number(-0.004, 2, "en"), number(1219.2, 1, "de")
    ('1.13', '0', '1219,2')
    """
    from babel.numbers import format_decimal

    rounded = _rounded(value, decimals)
    text: str = format_decimal(abs(rounded), format=_pattern(decimals), locale=_locale(lang))
    return MINUS + text if rounded < 0 else text


@functools.cache
def decimal_mark(lang: str) -> str:
    """The locale's decimal mark (``.`` in English, ``,`` in German; CLDR through Babel).

    >>> decimal_mark("en"), decimal_mark("de")
    ('.', ',')
    """
    from babel.numbers import get_decimal_symbol

    mark: str = get_decimal_symbol(_locale(lang))
    return mark


def _unit(value: float, decimals: int, unit: str, lang: str) -> str:
    """A length with its unit as the locale writes it (CLDR's short form through Babel:
    ``265.9 mm``, ``265,9 mm``, ``30 ft``, ``9 m``); :data:`MINUS` before a negative one."""
    from babel.units import format_unit

    rounded = _rounded(value, decimals)
    text: str = format_unit(
        abs(rounded), unit, "short", format=_pattern(decimals), locale=_locale(lang)
    )
    return MINUS + text if rounded < 0 else text


def signed(value: float, lang: str, decimals: int = 0) -> str:
    """A modifier with its sign: ``+2``, ``−2`` (:data:`MINUS`), ``0``.

    >>> signed(2, "en"), signed(-2, "de"), signed(0, "en"), signed(1.5, "de", 1)
    ('+2', '−2', '0', '+1,5')
    """
    text = number(value, decimals, lang)
    return text if text == "0" or text.startswith(MINUS) else "+" + text


def length(
    value: float,
    units: str,
    lang: str,
    *,
    inches: bool = True,
    squares: float | None = None,
    diagonal: int = 0,
) -> str:
    """THE formatter of lengths shown to people (rulings, panels, pictures, threat map).

    ``units`` is the unit ``value`` is in:

    * ``"mm"``: millimetres with one decimal (two below 1 mm, so a 0.25 mm gap stays
      visible), followed by the length in inches, since the rulers are in inches
      (``inches=False`` leaves them out: base sizes are written in mm alone, ``32 mm``);
    * ``"in"``: inches alone, as the rulebooks write them: the ″ sign, up to two decimals
      (quarter inches are exact: ``1.25″``; a ruler: ``2″``);
    * ``"ft"`` (the Pathfinder grid): feet in English, metres in German as the German rules
      write them (5 ft = 1,5 m, :data:`FEET_TO_METRES`); ``squares`` adds the count of
      squares, ``30 ft (6 squares)``, ``9 m (6 Felder)``. The length is the rule's count
      (diagonals 1-2-1), the squares are those a reader counts on the map: with ``diagonal``
      steps among them the text says so, ``15 ft (2 squares diagonally)``, ``20 ft (3
      squares, 2 of them diagonally)``.

    German uses a decimal comma, both languages the minus sign :data:`MINUS`.

    >>> length(265.92, "mm", "de")
    '265,9 mm (10,47″)'
    >>> length(50.8, "mm", "en"), length(6, "in", "en"), length(0.25, "mm", "en")
    ('50.8 mm (2″)', '6″', '0.25 mm (0.01″)')
    >>> length(32, "mm", "en", inches=False), length(1.25, "in", "de")
    ('32 mm', '1,25″')
    >>> length(30, "ft", "en", squares=6), length(30, "ft", "de", squares=6)
    ('30 ft (6 squares)', '9 m (6 Felder)')
    >>> length(5, "ft", "de", squares=1), length(7.5, "ft", "de")
    ('1,5 m (1 Feld)', '2,25 m')
    >>> length(15, "ft", "en", squares=2, diagonal=2), length(20, "ft", "de", squares=3, diagonal=2)
    ('15 ft (2 squares diagonally)', '6 m (3 Felder, davon 2 diagonal)')
    """
    check_lang(lang)
    if units == "in":
        return f"{number(value, 2, lang)}″"
    if units == "ft":
        if lang == "de":
            text = _unit(value * FEET_TO_METRES, 2, "length-meter", lang)
        else:
            text = _unit(value, 1, "length-foot", lang)
        if squares is not None:
            count = number(squares, 1, lang)
            noun = ("Feld" if lang == "de" else "square") if count == "1" else None
            noun = noun or ("Felder" if lang == "de" else "squares")
            how = ""
            if diagonal and diagonal == squares:
                how = " diagonal" if lang == "de" else " diagonally"
            elif diagonal:
                d = number(diagonal, 1, lang)
                how = f", davon {d} diagonal" if lang == "de" else f", {d} of them diagonally"
            text += f" ({count} {noun}{how})"
        return text
    if units != "mm":
        raise ValueError(f"unknown unit {units!r}; expected mm, in or ft")
    mm = _unit(value, 2 if abs(value) < 1 else 1, "length-millimeter", lang)
    if not inches:
        return mm
    return f"{mm} ({number(value / 25.4, 2, lang)}″)"


RULER_KEYS: frozenset[str] = frozenset({"ruler"})
"""Value names that are a ruler's colour, shown as the ruler's name (``red``: Red, Rot)."""


def point_text(point: PointRef, lang: str) -> str:
    """How a point target (coordinates in scenario units) reads in text. German separates the
    coordinates by a semicolon, since its decimal mark is a comma.

    >>> point_text(PointRef(200, -0.5), "en"), point_text(PointRef(200, -0.5), "de")
    ('point (200, −0.5)', 'Punkt (200; −0,5)')
    """
    sep = "; " if decimal_mark(lang) == "," else ", "
    x, y = number(point.x, 2, lang), number(point.y, 2, lang)
    return f"{word('point', lang)} ({x}{sep}{y})"


def ref_text(ref: Ref, lang: str, labels: Mapping[str, str]) -> str:
    """A reference (:mod:`fwwrules.refs`) named in text with the display names ``labels`` (an
    id without one shows as it is): a model or piece by its name, touching pieces acting as
    one joined by ``+``, a Significant Edge by its side and piece, a point by its coordinates.

    >>> names = {"c1": "Crate 1", "c2": "Crate 2", "b": "Building"}
    >>> ref_text(TerrainRef(("c1", "c2")), "en", names), ref_text(EdgeRef("b", "west"), "de", names)
    ('Crate 1 + Crate 2', 'Westkante von Building')
    """
    if isinstance(ref, ModelRef):
        return labels.get(ref.id, ref.id)
    if isinstance(ref, TerrainRef):
        return " + ".join(labels.get(i, i) for i in ref.ids)
    if isinstance(ref, EdgeRef):
        return render_edge(labels.get(ref.terrain, ref.terrain), ref.side, lang)
    return point_text(ref, lang)


MODIFIER_KEYS: frozenset[str] = frozenset({"modifiers"})
"""Value names holding skill modifiers as ``[clause, value]`` pairs, shown with their sign and
what they are: ``−2 (Quick Action), +2 (Stunned target)``; none: ``no modifier``."""

BASE_KEYS: frozenset[str] = frozenset({"diameter", "smaller", "target_diameter"})
"""Value names that are base diameters in millimetres (whatever the scenario's units), written
as the rulebooks write base sizes: ``32 mm``, no inches."""

NUMBERED_KEYS: frozenset[str] = frozenset({"numbers"})
"""Value names whose list is numbered from 1 when shown (the Armor die's numbers of
``melee.shoot-into``: ``["brute", "knight"]`` reads ``1: Brute, 2: Knight``)."""


def render_edge(piece: str, side: str, lang: str) -> str:
    """A Significant Edge named in text: the ``side`` edge of the terrain piece ``piece``.

    >>> render_edge("Building", "west", "en"), render_edge("Building", "north-west", "de")
    ('the west edge of Building', 'Nordwestkante von Building')
    """
    if lang == "de":
        return f"{word(side, lang)}kante von {piece}"
    return f"the {word(side, lang)} edge of {piece}"


class _Values(dict[str, Any]):
    """Template values: references (:mod:`fwwrules.refs`, :func:`ref_text`) and ids become
    display names, tokens in :data:`WORDS` are translated, lengths get their unit
    (:func:`length`); an empty list reads ``—``, a list under a key of :data:`NUMBERED_KEYS` is
    numbered from 1."""

    def __init__(self, values: Mapping[str, Any], lang: str, labels: Mapping[str, str]) -> None:
        super().__init__(values)
        self.lang = lang
        self.labels = labels
        units = values.get("units", values.get("unit"))
        self.units = None if units is None else str(units)

    def _one(self, value: str | Ref, key: str) -> str:
        if isinstance(value, REF_TYPES):
            return ref_text(value, self.lang, self.labels)
        if key in RULER_KEYS:
            return word(f"ruler-{value}", self.lang)
        if key not in WORD_KEYS and value in self.labels:
            return self.labels[value]
        return word(value, self.lang)

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        square = super().get("square")
        if key in BASE_KEYS and isinstance(value, (int, float)) and not isinstance(value, bool):
            return length(float(value), "mm", self.lang, inches=False)
        if key.endswith("_ft") and isinstance(value, (int, float)) and square:
            # a Pathfinder grid length in feet (the rule's count), with the squares a reader
            # counts (``<name>_squares``, ``<name>_diagonal``; else the rule's count)
            stem = key[: -len("_ft")]
            squares = super().get(f"{stem}_squares", value / square)
            diagonal = int(super().get(f"{stem}_diagonal", 0))
            return length(float(value), "ft", self.lang, squares=squares, diagonal=diagonal)
        if (
            self.units is not None
            and key in LENGTH_KEYS
            and isinstance(value, (int, float))
            and not isinstance(value, bool)
        ):
            return length(float(value), self.units, self.lang)
        if isinstance(value, (str, *REF_TYPES)):
            return self._one(value, key)
        if key in MODIFIER_KEYS and isinstance(value, (list, tuple)):
            parts = [f"{signed(v, self.lang)} ({modifier_label(c, self.lang)})" for c, v in value]
            return ", ".join(parts) or word("no-modifier", self.lang)
        if isinstance(value, (list, tuple)):
            if not value:
                return "—"  # nothing (never a hyphen, which would read as a minus)
            parts = [
                self._one(v, key) if isinstance(v, (str, *REF_TYPES)) else str(v) for v in value
            ]
            if key in NUMBERED_KEYS:
                parts = [f"{k}: {p}" for k, p in enumerate(parts, start=1)]
            return ", ".join(parts)
        return value


class _Formatter(string.Formatter):
    """``str.format`` whose numbers use the reader's decimal separator and the minus sign
    :data:`MINUS`."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        text: str = format(value, format_spec)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            text = text.replace("-", MINUS)
            if isinstance(value, float):
                text = text.replace(".", decimal_mark(self.lang))
        return text


def render(
    message_id: str,
    values: Mapping[str, Any],
    lang: str = "en",
    labels: Mapping[str, str] | None = None,
) -> str:
    """The text of one message; ``labels`` maps ids to display names.

    >>> render("size.classes", {"model": "dogmeat", "diameter": 40, "size": "large"}, "de",
    ...        {"dogmeat": "Dogmeat"})
    'Dogmeat steht auf einer Base von 40 mm: Größenklasse Groß.'
    """
    check_lang(lang)
    entry = MESSAGES.get(message_id)
    if entry is None:
        raise KeyError(f"no message {message_id!r} in the catalogue")
    return _Formatter(lang).vformat(entry[lang], (), _Values(values, lang, labels or {}))
