break MatmulBackward::backward
run
echo --- the incoming gradient\n
print g
echo --- a saved input\n
print a
echo --- the node itself\n
print *this
echo --- a call into the program\n
call attic::debug::repr(b)
echo --- up in main, the loss\n
frame function main
print loss
