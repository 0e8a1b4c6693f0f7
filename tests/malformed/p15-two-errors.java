// expect: 4:17 5:17
class Main {
    void f() {
        int x = ;
        int y = ;
    }
}
