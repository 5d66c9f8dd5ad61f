"""What tests/bxplot.sh reads back from a figure folder: the series gnuplot
drew (NAME.dat: '# series: TITLE' blocks of number rows) and the text of the
SVG (its legends, labels and titles)."""

import html
import math
import os
import re


def num(x):
    """A number where the field is one, else the text."""
    try:
        return float(x)
    except ValueError:
        return x


def reader(out):
    """(series, legend) for the figures in folder out: series(NAME) maps each
    series title to its rows; legend(NAME) is the SVG's text."""
    def series(name):
        blocks, cur = {}, None
        for line in open(os.path.join(out, name + '.dat')):
            if line.startswith('# series: '):
                cur = blocks.setdefault(line[10:].strip(), [])
            elif line.strip() and not line.startswith('#'):
                cur.append([num(x) for x in line.split()])
        return blocks

    def legend(name):
        svg = open(os.path.join(out, name + '.svg')).read()
        assert svg.lstrip().startswith('<?xml') and '</svg>' in svg
        return html.unescape(re.sub(r'<[^>]+>', '', svg))
    return series, legend


def close(a, b):
    return math.isclose(a, float(b), rel_tol=1e-9)
