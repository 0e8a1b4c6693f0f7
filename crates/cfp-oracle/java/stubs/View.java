/** `android.view.View`: geometry queries have arbitrary results; the drawing hooks do nothing. */
class View {
    /** `View.OnClickListener`. */
    public interface OnClickListener {
        void onClick(View v);
    }

    public View(Context context) {
    }

    public View(Context context, AttributeSet attrs) {
    }

    public View(Context context, AttributeSet attrs, int defStyleAttr) {
    }

    protected void onDraw(Canvas canvas) {
    }

    protected void onMeasure(int widthSpec, int heightSpec) {
    }

    protected void onSizeChanged(int w, int h, int oldw, int oldh) {
    }

    protected void onAttachedToWindow() {
    }

    protected void onDetachedFromWindow() {
    }

    public void invalidate() {
    }

    public void postInvalidate() {
    }

    public void postInvalidateOnAnimation() {
    }

    public void requestLayout() {
    }

    public void setOnClickListener(OnClickListener l) {
        cfporacle.Rt.escape(l);
        cfporacle.Rt.replayCallbacks(l);
    }

    public Context getContext() {
        return new Context();
    }

    public int getId() {
        return cfporacle.Rt.extInt();
    }

    public int getWidth() {
        return cfporacle.Rt.extInt();
    }

    public int getHeight() {
        return cfporacle.Rt.extInt();
    }

    public int getMeasuredWidth() {
        return cfporacle.Rt.extInt();
    }

    public int getMeasuredHeight() {
        return cfporacle.Rt.extInt();
    }

    public int getPaddingLeft() {
        return cfporacle.Rt.extInt();
    }

    public int getPaddingRight() {
        return cfporacle.Rt.extInt();
    }

    public int getPaddingTop() {
        return cfporacle.Rt.extInt();
    }

    public int getPaddingBottom() {
        return cfporacle.Rt.extInt();
    }

    public boolean isShown() {
        return cfporacle.Rt.extBool();
    }
}
