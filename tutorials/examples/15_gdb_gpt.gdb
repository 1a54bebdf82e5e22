break LayerNormBackward::backward
run
echo --- the first LayerNorm to run backward is ln_f, the last one of the forward\n
print *this
print g
echo --- x, saved detached for the kernel, and input, the same values still in the graph\n
print x
print input
print weight
echo --- four lines on, step into needs_grad, and finish it\n
next 4
step
finish
print $
echo --- finish backward itself: it returns dx, dw and db to the engine\n
finish
print $
echo --- in run_backward (autograd/engine.cpp): the node that ran, and the root\n
print *node._M_ptr
print root
echo --- two frames up, past Tensor::backward, in main\n
up 2
print loss
echo --- block 0 attention, recorded among the first 30 ops\n
delete
break PackedAttentionBackward::backward if sequence_nr < 30
continue
print *this
next 2
print dy
print dy.impl_._M_ptr->strides
echo --- the softmax weights P of head 0, all 36 of them\n
python MAX_VALUES = 36
print att
