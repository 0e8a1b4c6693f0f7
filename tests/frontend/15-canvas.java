// spec: canvas.cfg
class View {
    void draw(Canvas c, int layers) {
        c.save();
        for (int i = 0; i < layers; i++) {
            c.save();
            c.translate(i, i);
            c.restore();
        }
        c.restore();
    }

    public static void main(String[] args) {
        new View().draw(new Canvas(), 3);
    }
}
