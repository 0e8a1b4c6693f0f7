// spec: canvas
// expect: verified
// harness: public-methods
// why: each bar is drawn between a save() and a restore() in the while loop, and its
// segments through a helper that saves and restores around its clip; the anonymous
// Comparator only reads fields, so its code (not run) cannot change the verdict.
package com.example.dashboard.charts;

import android.graphics.Canvas;
import android.graphics.Paint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

public class StackedBarRenderer {

    /** One stacked bar: a label and the heights of its segments, bottom first. */
    public static class Bar {
        final String label;
        final int[] segments;
        final Integer total;

        public Bar(String label, int[] segments, Integer total) {
            this.label = label;
            this.segments = segments;
            this.total = total;
        }
    }

    private static final Comparator<Bar> BY_TOTAL_DESC = new Comparator<Bar>() {
        @Override
        public int compare(Bar a, Bar b) {
            return Integer.compare(b.total.intValue(), a.total.intValue());
        }
    };

    private final List<Bar> bars = new ArrayList<>();
    private final Paint[] segmentPaints;
    private float barWidth = 32f;
    private float chartHeight = 400f;
    private float pixelsPerUnit = 2f;

    public StackedBarRenderer(Paint[] segmentPaints) {
        this.segmentPaints = segmentPaints;
    }

    public void setBars(List<Bar> data, boolean sortByTotal) {
        bars.clear();
        bars.addAll(data);
        if (sortByTotal) {
            Collections.sort(bars, BY_TOTAL_DESC);
        }
    }

    public void drawBars(Canvas canvas) {
        Iterator<Bar> it = bars.iterator();
        float x = 0f;
        while (it.hasNext()) {
            Bar bar = it.next();
            if (bar.total == null || bar.total.intValue() <= 0) {
                x = x + barWidth;
                continue;
            }
            canvas.save();
            canvas.translate(x, chartHeight);
            canvas.scale(1f, -1f);
            float bottom = 0f;
            for (int i = 0; i < bar.segments.length; i++) {
                float top = bottom + bar.segments[i] * pixelsPerUnit;
                drawSegment(canvas, bottom, top, segmentPaints[i]);
                bottom = top;
            }
            canvas.restore();
            x = x + barWidth * 1.5f;
        }
    }

    private void drawSegment(Canvas canvas, float bottom, float top, Paint paint) {
        canvas.save();
        canvas.clipRect(0f, bottom, barWidth, top);
        canvas.drawPaint(paint);
        canvas.restore();
    }
}
