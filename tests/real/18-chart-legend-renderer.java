// spec: canvas
// expect: violation
// harness: public-methods
// why: renderLegend saves the canvas only when the legend is drawn inside the chart (to
// clip it), but restores it unconditionally: a legend drawn outside restores a save never made.
package com.example.charts.renderer;

import android.graphics.Canvas;
import android.graphics.Paint;
import android.graphics.RectF;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Formats the value shown next to a legend label. */
interface LegendValueFormatter {
    String format(Object value);
}

public class LegendRenderer {

    /** One row of the legend: a colour swatch, a label and an optional value. */
    public static class LegendEntry {
        final String label;
        final int color;
        final Object value;

        LegendEntry(String label, int color, Object value) {
            this.label = label;
            this.color = color;
            this.value = value;
        }

        String getLabel() {
            return label;
        }
    }

    private final List<LegendEntry> entries = new ArrayList<>();
    private final Paint labelPaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final Paint swatchPaint = new Paint();
    private final RectF contentRect;
    private final LegendValueFormatter formatter;
    private boolean drawInside;
    private float entrySpacing = 8f;

    public LegendRenderer(RectF contentRect, LegendValueFormatter formatter) {
        this.contentRect = contentRect;
        this.formatter = formatter;
    }

    public void setDrawInside(boolean drawInside) {
        this.drawInside = drawInside;
    }

    public void setEntries(List<LegendEntry> newEntries) {
        entries.clear();
        entries.addAll(newEntries);
        entries.sort(Comparator.comparing(LegendEntry::getLabel));
    }

    public void renderLegend(Canvas c) {
        if (entries.isEmpty()) {
            return;
        }
        if (drawInside) {
            c.save();
            c.clipRect(contentRect);
        }
        float y = contentRect.top + entrySpacing;
        for (int i = 0; i < entries.size(); i++) {
            LegendEntry entry = entries.get(i);
            drawSwatch(c, entry, y);
            c.drawText(labelFor(entry), contentRect.left + 24f, y, labelPaint);
            y = y + labelPaint.getTextSize() + entrySpacing;
        }
        c.restore(); // BUG: only balanced when drawInside is true
    }

    private void drawSwatch(Canvas c, LegendEntry entry, float y) {
        swatchPaint.setColor(entry.color);
        c.drawRect(contentRect.left, y - 12f, contentRect.left + 12f, y, swatchPaint);
    }

    private String labelFor(LegendEntry entry) {
        if (entry.value instanceof Number n) {
            return entry.label + " (" + formatter.format(n) + ")";
        }
        if (entry.value instanceof String s && !s.isEmpty()) {
            return entry.label + " " + s;
        }
        return entry.label;
    }
}
