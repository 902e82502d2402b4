"""The tree visualizer's replay: one Plotly figure that holds every iteration of a search as a frame
and plays them in the browser with its own Play / Pause / speed buttons and slider.

The whole trace is sent once; the figure is laid out once (an indented tree: one row per node in
reading order, one column per depth, so no two labels share a row and none overlaps another at any
width) and its axes are fixed, so playing, pausing or dragging the slider never re-zooms. Per frame
only the path, the nodes (size ~ sqrt N, colour ~ Q, N and Q and the full title on hover) change.
The path is drawn under the nodes and their labels; a label is the title wrapped on two lines
(``node_label``), to the right of its node. A tree larger than ``MAX_NODES`` is drawn collapsed to the
nodes the search visited, each parent's unvisited children summarised as one "+N unvisited" node. A purple
ring marks where the answer was read: the node of each page it cites, or the drawn section holding it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from alphasearch.models import SearchTrace
from pages._common import NodeView, inert, node_label, pages_label, q_colour, tree_state

MAX_NODES = 40  # more nodes than this: the tree is drawn collapsed to its visited part
SPEEDS = (2, 3, 5)  # frames per second offered
CONTROLS_PX = 140  # the Play buttons and the slider, above the tree
ROW_PX = 30  # height of one node's row (px): two lines of 11 px text
LABEL_COLUMNS = 1.6  # room right of the deepest column for its labels, in columns
UNVISITED = "#c9ced6"
CITED = "#9333ea"  # the ring around a node holding a page the answer cites: purple, apart from Q's red → green


@dataclass
class Spot:
    node_id: str
    parent: str | None
    title: str
    row: int
    depth: int
    summary_of: int = 0  # > 0: a "+N unvisited" node standing for that many children


def shown_nodes(final: list[NodeView], collapse: bool) -> list[Spot]:
    """The nodes to draw in reading order (pre-order, one row each): every node, or (``collapse``) the
    visited ones plus one "+N unvisited" node per parent whose other children were never visited."""
    kids: dict[str | None, list[NodeView]] = {}
    for v in final:
        kids.setdefault(v.parent, []).append(v)
    spots: list[Spot] = []

    def place(v: NodeView, depth: int) -> None:
        children = kids.get(v.node_id, [])
        drawn = [c for c in children if c.visits or not collapse]
        spots.append(Spot(v.node_id, v.parent, v.title, len(spots), depth))
        for c in drawn:
            place(c, depth + 1)
        if len(children) > len(drawn):
            hidden = len(children) - len(drawn)
            spots.append(Spot(f"{v.node_id}+", v.node_id, f"+{hidden} unvisited", len(spots), depth + 1, hidden))

    if kids.get(None):
        place(kids[None][0], 0)
    return spots


def _hover(v: NodeView | None, spot: Spot) -> str:
    if spot.summary_of or v is None:
        return inert(f"{spot.summary_of} sections the search never visited", "plotly")
    text = f"{pages_label(v.pages)} · {' '.join(v.title.split())}"
    return inert(text, "plotly") + f"<br>N = {v.visits} · Q = {v.q:.2f}"


def _frame_traces(spots: list[Spot], views: dict[str, NodeView], final: dict[str, NodeView], path: list[str],
                  top: int):
    """The two traces that change per frame: the path, and the nodes with their labels beside them."""
    at = {s.node_id: s for s in spots}
    px, py = [], []
    for a, b in zip(path, path[1:]):
        if a in at and b in at:
            px += [*_elbow(at[a], at[b])[0], None]
            py += [*_elbow(at[a], at[b])[1], None]
    sizes, colours, lines, hovers, labels = [], [], [], [], []
    on_path = set(path)
    for s in spots:
        v = views.get(s.node_id)
        visits = v.visits if v else 0
        sizes.append(10 + 26 * math.sqrt(visits / top) if v else 8)
        colours.append(q_colour(v.q, visits) if v else UNVISITED)
        lines.append(4 if s.node_id in on_path else 1)
        hovers.append(_hover(v, s))
        labels.append(s.title if s.summary_of else
                      inert(node_label(v or final[s.node_id]), "plotly").replace("\n", "<br>"))
    path_trace = go.Scatter(x=px, y=py, mode="lines", line=dict(color="#1f4e99", width=5), hoverinfo="skip")
    nodes = go.Scatter(x=[s.depth for s in spots], y=[-s.row for s in spots], mode="markers+text",
                       marker=dict(size=sizes, color=colours, line=dict(width=lines, color="#1f4e99"), opacity=1),
                       text=labels, textposition="middle right", textfont=dict(size=11, color="#1f2937"),
                       hovertext=hovers, hoverinfo="text", customdata=[s.node_id for s in spots])
    return path_trace, nodes


def _elbow(parent: Spot, child: Spot) -> tuple[list[float], list[float]]:
    """The edge from a parent down its column to the child's row, then across to the child."""
    return [parent.depth, parent.depth, child.depth], [-parent.row, -child.row, -child.row]


def cited_spots(spots: list[Spot], final: dict[str, NodeView], cited: Sequence[int]) -> dict[str, list[int]]:
    """For each page the answer cites, the deepest node drawn whose pages hold it (the page's own node when the
    search reached it, else the section around it): node id → its cited pages."""
    out: dict[str, list[int]] = {}
    for page in cited:
        holding = [s for s in spots if s.node_id in final and final[s.node_id].pages[0] <= page <= final[s.node_id].pages[1]]
        if holding:
            out.setdefault(max(holding, key=lambda s: s.depth).node_id, []).append(page)
    return out


def section_path(views: list[NodeView], page: int) -> list[str]:
    """The titles of the sections (not the root, not a page's own node) that hold ``page``, outermost first."""
    holding = [v for v in views if v.parent is not None and not v.page
               and v.pages[0] <= page <= v.pages[1]]
    return [" ".join(v.title.split()) for v in sorted(holding, key=lambda v: v.depth)]


def replay_figure(trace: SearchTrace, *, max_nodes: int = MAX_NODES,
                  cited: Sequence[int] = ()) -> tuple[go.Figure, int]:
    """The animated figure (frame t: the state after iteration t, 0 ≤ t ≤ T; it opens on T) and the
    number of nodes drawn. ``cited``: the pages the answer cites, each marked with a purple ring around the
    deepest node drawn that holds it (it stays through the replay: it is where the answer was read, not a state)."""
    T = len(trace.steps)
    states = [tree_state(trace, t) for t in range(T + 1)]
    final = states[-1]
    spots = shown_nodes(final, collapse=len(final) > max_nodes)
    at = {s.node_id: s for s in spots}
    ex, ey = [], []
    for s in spots:
        if s.parent in at:
            xs, ys = _elbow(at[s.parent], s)
            ex += [*xs, None]
            ey += [*ys, None]
    top = max((v.visits for v in final), default=0) or 1
    frames = []
    last = {v.node_id: v for v in final}
    for t, views in enumerate(states):
        path = list(trace.steps[t - 1].path) if t else []
        frames.append(go.Frame(name=str(t), data=list(_frame_traces(spots, {v.node_id: v for v in views}, last, path, top)),
                               traces=[1, 2]))
    edges = go.Scatter(x=ex, y=ey, mode="lines", line=dict(color="#b8bec8", width=1), hoverinfo="skip")
    marks = cited_spots(spots, last, cited)
    final_nodes = frames[-1].data[1]
    size_of = dict(zip(final_nodes.customdata, final_nodes.marker.size))
    rings = go.Scatter(x=[at[n].depth for n in marks], y=[-at[n].row for n in marks], mode="markers",
                       marker=dict(symbol="circle-open", size=[size_of.get(n, 10) + 11 for n in marks], color=CITED,
                                   line=dict(width=3, color=CITED)),
                       hovertext=["The answer cites " + ", ".join(f"p. {p}" for p in ps) for ps in marks.values()],
                       hoverinfo="text", customdata=list(marks), name="cited")
    fig = go.Figure(data=[edges, *frames[-1].data, rings], frames=frames)
    rows = len(spots)
    depth = max((s.depth for s in spots), default=0)
    play = dict(frame=dict(duration=1000 // SPEEDS[0], redraw=True), fromcurrent=True, mode="immediate",
                transition=dict(duration=0))
    plot_px = ROW_PX * rows + 20
    above = lambda px: 1 + px / plot_px  # noqa: E731  (paper y of a point px above the plot area)
    fig.update_layout(
        height=plot_px + CONTROLS_PX + 10, margin=dict(l=10, r=10, t=CONTROLS_PX, b=10), showlegend=False,
        plot_bgcolor="white", dragmode=False, hovermode="closest",
        xaxis=dict(range=[-0.3, depth + LABEL_COLUMNS], visible=False, fixedrange=True),
        yaxis=dict(range=[-rows + 0.4, 0.6], visible=False, fixedrange=True),
        updatemenus=[dict(type="buttons", direction="left", x=0, y=above(CONTROLS_PX - 4), xanchor="left",
                          yanchor="top", pad=dict(t=0, r=6), showactive=False, buttons=[
                              dict(label="▶ Play", method="animate", args=[None, play]),
                              dict(label="❚❚ Pause", method="animate",
                                   args=[[None], dict(frame=dict(duration=0, redraw=False), mode="immediate")]),
                              *(dict(label=f"{fps}/s", method="animate",
                                     args=[None, {**play, "frame": dict(duration=1000 // fps, redraw=True)}])
                                for fps in SPEEDS)])],
        sliders=[dict(active=T, x=0, y=above(CONTROLS_PX - 40), xanchor="left", yanchor="top", len=1.0,
                      pad=dict(t=0, b=0), currentvalue=dict(prefix="Iteration ", suffix=f" / {T}", font=dict(size=14)),
                      steps=[dict(label=str(t), method="animate",
                                  args=[[str(t)], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                                       transition=dict(duration=0))]) for t in range(T + 1)])])
    return fig, len(spots)
