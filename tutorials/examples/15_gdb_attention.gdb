# tensor/cpu/attention.cpp:519 is the line after "// dq [rows, hs] = dS [rows, vis] @ k [vis, hs]"
break attention.cpp:519 if h == 0
run
echo --- the kernel's view of the op that called it\n
frame function attic::(anonymous namespace)::PackedAttentionBackward::backward
print *this
echo --- back in the kernel, head 0: a block of query rows i0 to i0 + rows, the keys they see, the pitch\n
frame 0
print i0
print rows
print vis
print ld
echo --- dS of the block, row by row: row t has t + 1 entries, then the causal zeros\n
set $r = 0
while $r < rows
  print dSb[$r * ld]@vis
  set $r = $r + 1
end
echo --- the last row's P, the weights the forward saved\n
print Pb[(rows - 1) * ldp]@vis
echo --- each row of dS sums to 0: P (dP - rowsum(dP P)) sums to rowsum - rowsum\n
set $sum = 0
set $j = 0
while $j < vis
  set $sum = $sum + dSb[(rows - 1) * ld + $j]
  set $j = $j + 1
end
print $sum
