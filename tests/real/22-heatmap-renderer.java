// spec: canvas
// expect: verified
// harness: public-methods
// why: render() restores in a finally block, so the early return inside the try still
// restores once; each row painter (an inner class reading the renderer's fields through
// HeatmapRenderer.this) pairs its save() and restore() for every row it draws.
package com.example.analytics.heatmap;

import android.graphics.Canvas;
import android.graphics.Paint;
import android.graphics.RectF;

/** Maps a cell value in [0, 1] to an ARGB colour. */
interface ColorScale {
    int colorFor(double value);
}

/** A linear blue-to-red scale. */
class LinearColorScale implements ColorScale {
    @Override
    public int colorFor(double value) {
        int red = (int) (255 * value);
        return 0xFF000000 | (red << 16) | (255 - red);
    }
}

public class HeatmapRenderer {

    private final Paint cellPaint = new Paint();
    private final RectF cell = new RectF();
    private final Object dataLock = new Object();
    private ColorScale scale = new LinearColorScale();
    private double[][] data = new double[0][0];
    private float cellSize = 24f;
    private float gap = 1f;

    public void setData(double[][] newData) {
        synchronized (dataLock) {
            data = newData;
        }
    }

    public void setCellSize(float cellSize) {
        assert cellSize > 0 : "cell size must be positive";
        this.cellSize = cellSize;
    }

    public void render(Canvas canvas, RectF viewport) {
        double[][] rows;
        synchronized (dataLock) {
            rows = data;
        }
        canvas.save();
        try {
            canvas.clipRect(viewport);
            canvas.translate(viewport.left, viewport.top);
            if (rows.length == 0) {
                return;
            }
            for (int r = 0; r < rows.length; r++) {
                new RowPainter(rows[r], r).paint(canvas);
            }
        } finally {
            canvas.restore();
        }
    }

    /** Paints one row of cells, using the renderer's paint, scale and geometry. */
    class RowPainter {
        private final double[] values;
        private final int rowIndex;

        RowPainter(double[] values, int rowIndex) {
            this.values = values;
            this.rowIndex = rowIndex;
        }

        void paint(Canvas canvas) {
            float size = HeatmapRenderer.this.cellSize;
            canvas.save();
            canvas.translate(0f, rowIndex * (size + gap));
            for (int c = 0; c < values.length; c++) {
                cellPaint.setColor(scale.colorFor(values[c]));
                cell.set(c * (size + gap), 0f, c * (size + gap) + size, size);
                canvas.drawRect(cell, cellPaint);
            }
            canvas.restore();
        }
    }
}
