"""A trend answer on screen: the series' table (one row per period, oldest first, each cited to its filing and
page; a period without a figure says why) and a Plotly chart of it; clicking a point opens the page it was read
from. The rows are ``Answer.extra["series"]`` (alphasearch/folder/series.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from alphasearch.models import Citation
from pages._common import PdfLoader, citation_preview, inert

COLOURS = ("#1f4e99", "#c2410c", "#15803d", "#7c3aed", "#b91c1c", "#0f766e")


def series_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as the table shows them, as inert text (a company column only when the series holds several)."""
    several = len({r.get("company") for r in rows}) > 1
    out = []
    for r in rows:
        value, change, pct = r.get("value"), r.get("change"), r.get("change_pct")
        figure = "—" if value is None else f"{r.get('printed') or f'{value:,.2f}'} {r.get('unit', '')}".strip()
        moved = "" if change is None else f"{change:+,.0f}" + ("" if pct is None else f" ({pct:+.1f}%)")
        source = f"{r.get('doc', '')}, p. {r['page']}" if r.get("page") else ""
        cells = {**({"Company": r.get("company", "")} if several else {}), "Period": r.get("period", ""),
                 "Figure": figure, "Change": moved, "Source": source, "Note": r.get("note", "")}
        out.append({k: inert(v) for k, v in cells.items()})  # st.table renders Markdown: document text stays text
    return pd.DataFrame(out)


def series_figure(rows: list[dict[str, Any]], item: str) -> go.Figure:
    """One line per company through its periods' figures; a point's hover names its filing and page and its
    ``customdata`` is the row's index (the click handler opens that page)."""
    fig = go.Figure()
    companies = list(dict.fromkeys(r.get("company", "") for r in rows))
    for k, company in enumerate(companies):
        mine = [(i, r) for i, r in enumerate(rows) if r.get("company", "") == company and r.get("value") is not None]
        if not mine:
            continue
        fig.add_trace(go.Scatter(
            x=[r["period"] for _, r in mine], y=[r["value"] for _, r in mine], mode="lines+markers",
            name=inert(company, "plotly"), customdata=[i for i, _ in mine],
            marker={"size": 12, "color": COLOURS[k % len(COLOURS)]}, line={"color": COLOURS[k % len(COLOURS)]},
            hovertext=[inert(f"{r['period']}: {r.get('printed') or r['value']} {r.get('unit', '')}", "plotly")
                       + "<br>" + inert(f"{r['doc']}, p. {r['page']}", "plotly") for _, r in mine],
            hoverinfo="text"))
    periods = list(dict.fromkeys(r["period"] for r in rows if r.get("period") and r["period"] != "—"))
    unit = next((r.get("unit") for r in rows if r.get("unit")), "")
    fig.update_layout(height=340, margin={"l": 10, "r": 10, "t": 36, "b": 10}, showlegend=len(companies) > 1,
                      title={"text": inert(item, "plotly"), "font": {"size": 14}},
                      xaxis={"type": "category", "categoryorder": "array", "categoryarray": periods},
                      yaxis={"title": {"text": inert(unit, "plotly")}, "rangemode": "tozero"},
                      clickmode="event+select")
    return fig


def render_series(series: dict[str, Any], pdf_for: Callable[[Citation], PdfLoader | None], key: str) -> None:
    """The table, the chart, and the cited page of the point clicked."""
    rows = [r for r in series.get("rows") or [] if isinstance(r, dict)]
    if not rows:
        return
    with st.container(key=f"series-table-{key}"):
        st.table(series_table(rows).set_index("Period"))  # a few rows: an HTML table, its text as printed
    with st.container(key=f"series-chart-{key}"):
        event = st.plotly_chart(series_figure(rows, str(series.get("item", ""))), width="stretch",
                                key=f"series-{key}", on_select="rerun", selection_mode="points",
                                config={"displayModeBar": False})
    points = event.selection.points if event and event.selection else []
    picked = [p.get("customdata") for p in points if isinstance(p.get("customdata"), int)]
    if not picked:
        st.caption("Click a point to open the page its figure was read from.")
        return
    r = rows[picked[0]] if 0 <= picked[0] < len(rows) else None
    if r is None or not r.get("page"):
        return
    cite = Citation(str(r["doc"]), str(r["period"]), (int(r["page"]), int(r["page"])), str(r.get("printed", "")),
                    str(r.get("doc_id", "")))
    with st.container(border=True, key=f"series-page-{key}"):
        st.markdown(f"**{inert(r['period'])}** · {inert(r['doc'])}, p. {int(r['page'])}")
        citation_preview([cite], pdf_for(cite))
