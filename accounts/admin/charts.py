"""Bar charts drawn on the server as inline SVG (no JavaScript, no CDN): the geometry of each bar and axis
label, computed here as plain data for the template to draw, with the series' values kept for its text
alternative (a table)."""

from __future__ import annotations

from dataclasses import dataclass

from timelines.selectors.dashboard import Series

WIDTH, HEIGHT = 720, 180
LEFT, BOTTOM, TOP = 36, 20, 10  # room for the value axis, the day labels and the top value


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Tick:
    x: float
    text: str


@dataclass(frozen=True, slots=True)
class Chart:
    slug: str
    series: Series
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]  # one label per day under the bars
    top: int  # the value at the top of the value axis
    width: int = WIDTH
    height: int = HEIGHT
    plot_left: int = LEFT
    plot_bottom: int = HEIGHT - BOTTOM
    plot_top: int = TOP

    @property
    def description(self) -> str:
        change = self.series.change
        sign = "+" if change > 0 else ""
        highest = max(self.series.values, default=0)
        return (
            f"{self.series.name} per {self.series.unit}, last 7 days: {self.series.total} in all "
            f"({sign}{change} on the 7 days before); the highest {self.series.unit} had {highest}."
        )

    @property
    def change_text(self) -> str:
        """ "+3 (+50%)", "-2 (-10%)", "+3" when the week before had none, "no change"."""
        change = self.series.change
        if not change:
            return "no change"
        sign = "+" if change > 0 else ""
        if not self.series.previous_total:
            return f"{sign}{change}"
        return f"{sign}{change} ({sign}{round(100 * change / self.series.previous_total)}%)"

    @property
    def trend(self) -> str:
        return "up" if self.series.change > 0 else "down" if self.series.change < 0 else ""


def bar_chart(slug: str, series: Series) -> Chart:
    """``series`` as bars over the plot's width, scaled to its highest value; day labels under the bars."""
    count = max(len(series.values), 1)
    top = max(max(series.values, default=0), 1)
    plot_width = WIDTH - LEFT
    plot_height = HEIGHT - BOTTOM - TOP
    slot = plot_width / count
    gap = slot * 0.15 if count <= 31 else 0.0
    bars = []
    for index, (label, value) in enumerate(zip(series.labels, series.values, strict=True)):
        height = plot_height * value / top
        bars.append(
            Bar(
                x=round(LEFT + index * slot + gap / 2, 2),
                y=round(HEIGHT - BOTTOM - height, 2),
                width=round(max(slot - gap, 0.5), 2),
                height=round(height, 2),
                label=label,
                value=value,
            )
        )
    # One label a day: under each day's bar, or at each midnight of an hourly series.
    starts = [index for index, label in enumerate(series.labels) if series.unit == "day" or label.endswith(" 00:00")]
    ticks = tuple(
        Tick(
            x=round(LEFT + (index + (0.5 if series.unit == "day" else 0)) * slot, 2),
            text=series.labels[index][5:10],
        )
        for index in starts
    )
    return Chart(slug=slug, series=series, bars=tuple(bars), ticks=ticks, top=top)
