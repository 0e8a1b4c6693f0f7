// expect: 2:1
int x = 3;
class Main { }
