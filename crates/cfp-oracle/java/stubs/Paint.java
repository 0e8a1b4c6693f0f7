/** `android.graphics.Paint`: settings are kept nowhere; measures are fixed. */
class Paint {
    public static final int ANTI_ALIAS_FLAG = 1;

    public Paint() {
    }

    public Paint(int flags) {
    }

    public void setColor(int color) {
    }

    public void setAlpha(int alpha) {
    }

    public void setTextSize(float size) {
    }

    public void setStrokeWidth(float width) {
    }

    public void setAntiAlias(boolean aa) {
    }

    public float getTextSize() {
        return 12f;
    }

    public float measureText(String text) {
        return 0f;
    }
}
