# The answer to chapter 15's exercise: g, its strides, a and b in MulBackward::backward.
# Why g's strides are {0, 0}: the gradient of sum with respect to its input is 1 everywhere,
# and SumBackward hands it on as the 1 of a 0-d tensor expanded to [2, 2], a view whose
# strides are 0: four elements, one float in memory. The printer walks the strides, so it
# shows the four logical values. a is the product a @ b of main, recorded by
# MatmulBackward; b is w, which never asked for a gradient.
break MulBackward::backward
run
echo --- g\n
print g
print g.impl_._M_ptr->strides
echo --- a, the matmul's output\n
print a
echo --- b, the weights w\n
print b
