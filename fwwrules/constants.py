"""Named constants: every tolerance and limit of the engine lives here, once.

All lengths are millimetres unless the name says otherwise.
"""

from __future__ import annotations

from typing import Final

MM_PER_INCH: Final = 25.4
"""One inch in millimetres (the rulebook measures in inches)."""

LENGTH_EPSILON_MM: Final = 1e-6
"""A segment is *inside* a piece only over a length above this.

Touching a boundary (a grazed corner, a line along an edge, a tangent to a base) stays below it
and is never a crossing; a 0.5 mm clip of a corner is far above it and counts.
"""

BOUNDARY_TOLERANCE_MM: Final = 1e-9
"""A point closer than this to an outline counts as lying on it (floating-point rounding only).

A line computed through two corners of an edge runs *along* that edge even when rounding puts
it 1e-16 mm inside; a line computed as a tangent touches the base even when rounding gives it a
chord of depth 1e-13 mm. Far below :data:`LENGTH_EPSILON_MM` and anything a table shows.
"""

DEFAULT_CONTACT_TOLERANCE_MM: Final = 0.5
"""Two bases whose gap is at most this are in contact (scenario option ``contact_tolerance``).

Bases overlapping by more than it are invalid; cover touching the shooter's base uses it too.
"""

MAX_CONTACT_TOLERANCE_MM: Final = 5.0
"""Widest contact tolerance a scenario may set (option ``contact_tolerance``); it may also be at
most half the shortest ruler (Orange, 50.8 mm, unless the scenario changes the rulers).

The ruler tolerance follows the contact tolerance (``thresholds``): one near Orange would make
every model Elevated over every other and every pair of bases "in contact" across the table.
5 mm is ten times the default, more than bases placed by hand ever stand apart.
"""

NORMAL_BASE_MM: Final = 32.0
"""``size.classes``: the rulebook's Normal base, and the base a model has where none is given
(the threat map's probe, the editor's new model); any base under :data:`LARGE_BASE_MM` is
Normal."""

LARGE_BASE_MM: Final = 40.0
"""``size.classes``: a base at least this wide, and narrower than :data:`HUGE_BASE_MM`, is
Large."""

HUGE_BASE_MM: Final = 60.0
"""``size.classes``: a base at least this wide is Huge."""

SIZE_CLASS_TOLERANCE_MM: Final = 0.01
"""Slack when comparing a base diameter with the 40 mm and 60 mm class limits.

A 1.5748 in base is a 40 mm base even though 1.5748 * 25.4 is 39.99992 mm. The same slack
decides whether one base is *smaller* than another (``ranged.los.huge``, ``cover.huge``): a
base must be smaller by more than it, so two 60 mm bases, one written in inches, are equal.
"""

# --- Limits that keep a public Binder safe --------------------------------------------------
MAX_FILE_BYTES: Final = 262_144
"""A scenario or grid file larger than this (256 KiB) is refused before it is parsed.

Reading takes about 2 s per MB of YAML on a busy Binder; every limit below fits in far less
(the largest legal board written out is under 150 KB), so anything more is padding."""

MAX_TEXT_FILE_BYTES: Final = 16 * 1024 * 1024
"""A review export (``fwwrules review --suggestions FILE.json``) or a gettext file larger than
this (16 MiB: many times every text of the catalogue with comments) is refused unread."""

STALE_TEMPORARY_S: Final = 10.0
"""A temporary file of an atomic write (:mod:`fwwrules.writing`) left by a process that died
(killed while saving, or while the review page stored a picture) is removed by the next write
into its folder once it is at least this old (seconds since it was last written) and no
process holds its lock. The age only closes the instant between a writer creating its
temporary file and locking it; a live writer holds the lock however long it writes."""

MAX_MODELS: Final = 200
"""Most models one scenario may hold."""

MAX_TERRAIN: Final = 500
"""Most terrain pieces one scenario may hold."""

MAX_WEAPONS: Final = 200
"""Most weapon profiles one scenario may hold."""

MAX_POLYGON_VERTICES: Final = 256
"""Most vertices one terrain polygon may have."""

MAX_TOTAL_VERTICES: Final = 2048
"""Most corners all terrain pieces of one scenario may have together; a rectangle counts 4, a
circle 128 (it is drawn and measured as a 128-gon). Merging touching pieces and the exact
line-of-sight search grow faster than linearly with the corners in one place, so this, not
the number of pieces, bounds a ruling's time: at the limit, the worst board
``bench/worst_case.py`` builds is answered within the 2 s budget."""

MIN_FEATURE_MM: Final = 0.01
"""Smallest feature a terrain piece may have (after unit conversion): a polygon edge, a
rectangle side or a circle diameter shorter than this is refused at load. Far below any real
model or terrain piece (a hundredth of a millimetre), far above :data:`LENGTH_EPSILON_MM`, so
no piece is so small that the tolerances decide its rulings."""

MAX_GRID_CELLS: Final = 10_000
"""Most squares a Pathfinder grid map may have."""

MAX_GRID_WALLS: Final = 10_000
"""Most entries the ``walls`` list of one grid file may have."""

MAX_GRID_EFFECT_LINES: Final = 4_000
"""Most candidate lines the exact line-of-effect search (``grid.total``) may try for one
query, after the cheap tests (corner lines, and a flood fill that proves total cover when the
two spaces are not connected) left it open; a query needing more is refused (exit 2)."""

MAX_GRID_WALL_EDGES: Final = 20_200
"""Most square borders the ``walls`` of one grid file may cover together (a wall of length n
covers n borders; overlaps count again). Every border of the largest map is 2 * 100 * 101."""

MAX_COORDINATE: Final = 1e6
"""Largest absolute coordinate or length (in the file's units) a scenario may use."""

SANE_BASE_MM: Final = (10.0, 300.0)
"""Base diameters outside this range (after unit conversion) are refused as a likely mistake."""

SANE_RULER_MM: Final = (5.0, 2000.0)
"""Ruler lengths (and range bands given as lengths) outside this range are refused likewise."""

MAX_MODEL_WEAPONS: Final = 32
"""Most weapon ids (and, likewise, keywords or status markers) one model may list."""

MAX_NUMBER_CHARS: Final = 32
"""Longest number, in characters as written, a file may hold (a coordinate written with all
the digits a double has takes about 24). Longer numbers are refused while the file is read,
before anything is built: converting a number with thousands of digits is slow, and no table
measurement has them."""

MAX_CACHED_PICTURE_BYTES: Final = 8_388_608
"""Largest file (8 MiB) the review page's picture cache reads back; its pictures are about
50 KB, so anything larger is not one of its own and is drawn again instead."""

MAX_NESTING: Final = 32
"""Deepest nesting of lists and mappings a file may have (a scenario needs about 6 levels)."""

MAX_REPORTED_PROBLEMS: Final = 50
"""Most problems an error message lists; the rest are counted in one closing line."""

EDGE_PROBE_MM: Final = 1e-3
"""How far beyond a terrain edge the ground is probed (``elevation.significant-edge``), and how
far along a line either side of an edge's end point it is probed (``edge_crossed``).

Far below any gap between pieces on a real table, far above floating-point noise.
"""

BOARD_MARGIN_MM: Final = 30.0
"""Without a table size (``board: {size: ...}``), the table is the contents' bounding box plus
this margin on each side (:func:`fwwrules.board.board_limits`)."""

MAX_THREAT_POSITIONS: Final = 65_536
"""Most target positions one threat map may have (``fwwrules threat``; 256 x 256).

A step that would give more positions is refused with the smallest step that fits.
"""

THREAT_BUDGET_S: Final = 2.5
"""A threat map's time budget (s): one whose estimated time (:mod:`fwwrules.threat.cost`) is
above it is refused, naming what to reduce; the default grid coarsens to fit it. The crowded
benchmark board at a quarter inch (the threat map's reference: about 2 s on the 2-core
development machine) estimates 2.3 s; the estimate errs high for most boards."""

THREAT_COARSEST_STEP_MM: Final = 152.4
"""The coarsest step (6″) the time budget (:data:`THREAT_BUDGET_S`) may grow a threat map's
default grid to. A board whose map would fit only at a coarser step (200 models among 100
pieces with heights fitted only at about 1 m: one position on a 6' table) is refused as soon
as the estimate says so, before the map's work, naming this limit and the step that would
fit: cells half a foot apart no longer say where to stand. A step asked for is taken as
asked (within the budget); over an area so large that the positions limit
(:data:`MAX_THREAT_POSITIONS`) alone makes the step coarser, that step is the limit."""

THREAT_SURE_MARGIN_MM: Final = 1e-3
"""How clear a threat map's fast path must be of every boundary to decide a cell by itself.

A position whose Line of Cover, sight line, range or base lies within this of a piece's
outline, a base, a ruler's end or a contact is decided by :func:`fwwrules.ruling` itself
(``fwwrules.threat``), so the map agrees with the rulings exactly at boundary positions.
It is far above :data:`LENGTH_EPSILON_MM` and floating-point noise, far below a table's detail.
"""

# --- How close a ruling is to changing (fwwrules.margins) -------------------------------------
MARGIN_RADIUS_MM: Final = 50.8
"""How far (2″, Orange) the margin search moves the attacker and the target: a ruling that does
not change while either moves up to this far says so (``margin`` with null fields)."""

KNIFE_EDGE_MM: Final = 1.0
"""A ruling whose smallest margin is below this is a knife-edge call (scenario option
``knife_edge``): about the precision of a player's ruler and hand. Any base contact is one
(its margin is at most the contact tolerance, 0.5 mm, when the bases touch), and so is a
distance exactly at a ruler's end (the ruler tolerance, 0.5 mm)."""

MARGIN_PROBE_MM: Final = 1e-3
"""How far past a computed margin the ruling is asked again to confirm that it changes there
(far above :data:`LENGTH_EPSILON_MM`, so a clipped corner is a crossing, far below a table's
detail). A margin is the boundary; moving this much farther changes the ruling."""

MARGIN_CORNER_DEPTH_MM: Final = 1e-5
"""At a corner of two boundaries (a margin where two decisions must both change), how far inside
each the place the ruling is asked should lie (ten times :data:`LENGTH_EPSILON_MM`, so the
moved Line of Cover clips the piece by more than a graze); a narrower corner is asked half as
deep as it allows."""

MARGIN_SEARCH_STEP_MM: Final = 0.25
"""Where the nearest place on a boundary is one the model cannot stand on (a base or a solid
piece in the way), the boundary is sampled every this many mm for the nearest place it can
stand, then narrowed down to :data:`MARGIN_PRECISION_MM` by bisection."""

MARGIN_PRECISION_MM: Final = 1e-3
"""The precision of a margin found by search (stated in the result); closed-form margins are
exact to rounding."""

MAX_MARGIN_PROBES: Final = 400
"""Most rulings one margin computation asks (each a full exact ruling at a moved position);
candidates beyond it are left unconfirmed and the result says the search was cut short."""

MAX_MARGIN_CORNER_PAIRS: Final = 100_000
"""The margins' work bound (issue 31): most pairs of blocker corners one margin computation
may weigh as lines closing a gap (per mover and line-of-sight source, ``n`` corners near the
shot give ``n (n - 1) / 2`` pairs, each a candidate line and most a full ruling to ask), with
the pairs of line-of-sight lines whose corners it weighs (issue 35) and a terrain target's
corners times the blockers'. They are counted before any pair is built; past the bound the
margins are not measured (the JSON's ``margin.measured`` is false and the sentence says so,
with the count and the bound). The
crowded board of ``bench/margins.py`` weighs at most 15,536 (every fourth pair, flat and
with heights); eight 256-corner stars between the models (``bench/worst_case.py``) millions."""
