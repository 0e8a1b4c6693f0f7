// spec: canvas.cfg
// expect: verified
// why: draw() saves and restores in pairs (optionally nested through a helper), and main
// wraps it in save/restore: every prefix has at least as many saves as restores.
class Main {
    static void layer(Canvas c) {
        c.save();
        c.restore();
    }

    static void draw(Canvas c) {
        if (*) {
            c.save();
            layer(c);
            c.restore();
        }
    }

    public static void main(String[] args) {
        Canvas c = new Canvas();
        c.save();
        draw(c);
        c.restore();
    }
}
