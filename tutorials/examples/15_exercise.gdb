break MulBackward::backward
run
echo --- g\n
print g
print g.impl_._M_ptr->strides
echo --- a, the matmul's output\n
print a
echo --- b, the weights w\n
print b
