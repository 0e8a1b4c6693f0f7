/** `android.graphics.Canvas`: every call is recorded; results are arbitrary. */
class Canvas {
    public int save() {
        cfporacle.Rt.event(this, "save");
        return cfporacle.Rt.extInt();
    }

    public int save(int flags) {
        cfporacle.Rt.event(this, "save", flags);
        return cfporacle.Rt.extInt();
    }

    public int saveLayer(Object bounds, Object paint) {
        cfporacle.Rt.event(this, "saveLayer", bounds, paint);
        return cfporacle.Rt.extInt();
    }

    public int saveLayerAlpha(Object bounds, int alpha) {
        cfporacle.Rt.event(this, "saveLayerAlpha", bounds, alpha);
        return cfporacle.Rt.extInt();
    }

    public void restore() {
        cfporacle.Rt.event(this, "restore");
    }

    public void restoreToCount(int count) {
        cfporacle.Rt.event(this, "restoreToCount", count);
    }

    public int getSaveCount() {
        cfporacle.Rt.event(this, "getSaveCount");
        return cfporacle.Rt.extInt();
    }

    public int getWidth() {
        return cfporacle.Rt.extInt();
    }

    public int getHeight() {
        return cfporacle.Rt.extInt();
    }

    public void translate(float dx, float dy) {
        cfporacle.Rt.event(this, "translate", dx, dy);
    }

    public void rotate(float degrees) {
        cfporacle.Rt.event(this, "rotate", degrees);
    }

    public void rotate(float degrees, float px, float py) {
        cfporacle.Rt.event(this, "rotate", degrees, px, py);
    }

    public void scale(float sx, float sy) {
        cfporacle.Rt.event(this, "scale", sx, sy);
    }

    public void scale(float sx, float sy, float px, float py) {
        cfporacle.Rt.event(this, "scale", sx, sy, px, py);
    }

    public boolean clipRect(Object rect) {
        cfporacle.Rt.event(this, "clipRect", rect);
        return cfporacle.Rt.extBool();
    }

    public boolean clipRect(float left, float top, float right, float bottom) {
        cfporacle.Rt.event(this, "clipRect", left, top, right, bottom);
        return cfporacle.Rt.extBool();
    }

    public boolean clipPath(Object path) {
        cfporacle.Rt.event(this, "clipPath", path);
        return cfporacle.Rt.extBool();
    }

    public void drawColor(int color) {
        cfporacle.Rt.event(this, "drawColor", color);
    }

    public void drawLine(float x0, float y0, float x1, float y1, Object paint) {
        cfporacle.Rt.event(this, "drawLine", x0, y0, x1, y1, paint);
    }

    public void drawRect(float left, float top, float right, float bottom, Object paint) {
        cfporacle.Rt.event(this, "drawRect", left, top, right, bottom, paint);
    }

    public void drawRect(Object rect, Object paint) {
        cfporacle.Rt.event(this, "drawRect", rect, paint);
    }

    public void drawRoundRect(Object rect, float rx, float ry, Object paint) {
        cfporacle.Rt.event(this, "drawRoundRect", rect, rx, ry, paint);
    }

    public void drawCircle(float cx, float cy, float radius, Object paint) {
        cfporacle.Rt.event(this, "drawCircle", cx, cy, radius, paint);
    }

    public void drawArc(Object oval, float start, float sweep, boolean useCenter, Object paint) {
        cfporacle.Rt.event(this, "drawArc", oval, start, sweep, useCenter, paint);
    }

    public void drawText(String text, float x, float y, Object paint) {
        cfporacle.Rt.event(this, "drawText", text, x, y, paint);
    }

    public void drawPath(Object path, Object paint) {
        cfporacle.Rt.event(this, "drawPath", path, paint);
    }

    public void drawOval(Object oval, Object paint) {
        cfporacle.Rt.event(this, "drawOval", oval, paint);
    }

    public void drawBitmap(Object bitmap, float left, float top, Object paint) {
        cfporacle.Rt.event(this, "drawBitmap", bitmap, left, top, paint);
    }
}
