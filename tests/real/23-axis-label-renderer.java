// spec: canvas
// expect: violation
// entry: XAxisRenderer.renderAxisLabels
// why: a label is saved and rotated only when the orientation is not HORIZONTAL, but its
// restore() was moved out of that `if`: a horizontal label restores the save() made for the
// clip before the loop, and the final restore() then has no save left to match.
package com.example.charts.axis;

import android.graphics.Canvas;
import android.graphics.Paint;
import android.graphics.RectF;
import android.util.Log;

public class XAxisRenderer {

    private static final String TAG = XAxisRenderer.class.getSimpleName();

    public enum LabelOrientation { HORIZONTAL, ROTATED, VERTICAL, STAGGERED }

    /** Geometry of the axis, computed during layout. */
    static class AxisGeometry {
        final RectF contentArea = new RectF();
        float baseline;
        float labelSpacing;
        float staggerOffset;
    }

    private final Paint labelPaint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final AxisGeometry geometry = new AxisGeometry();
    private LabelOrientation orientation = LabelOrientation.HORIZONTAL;

    public void setLabelOrientation(LabelOrientation orientation) {
        this.orientation = orientation;
    }

    public void renderAxisLabels(Canvas c, String[] labels) {
        assert labels != null : "labels must be computed before drawing";
        if (labels.length == 0) {
            Log.d(TAG, "no labels to draw");
            return;
        }
        c.save();
        c.clipRect(geometry.contentArea);
        boolean odd = false;
        float x = geometry.contentArea.left;
        for (int i = 0; i < labels.length; i++) {
            float y = geometry.baseline;
            float angle;
            switch (orientation) {
                case ROTATED:
                    angle = -45f;
                    break;
                case VERTICAL:
                    angle = -90f;
                    break;
                case STAGGERED:
                    angle = 0f;
                    if (odd) {
                        y = y + geometry.staggerOffset;
                    }
                    break;
                default:
                    angle = 0f;
                    break;
            }
            if (orientation != LabelOrientation.HORIZONTAL) {
                c.save();
                c.rotate(angle, x, y);
            }
            c.drawText(labels[i], x, y, labelPaint);
            c.restore(); // BUG: belongs inside the `if` above
            odd = !odd;
            x = x + geometry.labelSpacing;
        }
        c.restore();
    }
}
