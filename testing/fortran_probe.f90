! fortran_probe.f90 -- a Fortran LAPACK caller (gfortran's ABI: hidden string
! lengths after the arguments), linked with the shim and no LAPACK. Solves one
! SPD system with dposv (uplo in lower case) and prints
! "info <k> solve <ratio>"; testing_preload.sh builds and runs it when
! gfortran is there.   fortran_probe n
program fortran_probe
  implicit none
  integer :: n, nrhs, info, i, j, k
  double precision, allocatable :: a(:,:), a0(:,:), b(:,:), x(:,:)
  double precision :: rn, xn, an, r
  character(len=16) :: arg
  external :: dposv
  call get_command_argument(1, arg)
  read (arg, *) n
  nrhs = 2
  allocate (a(n, n), a0(n, n), b(n, nrhs), x(n, nrhs))
  do j = 1, n
    do i = 1, n
      a(i, j) = 1d0 / (1d0 + abs(dble(i - j)))
      if (i == j) a(i, j) = a(i, j) + n
    end do
  end do
  do k = 1, nrhs
    do i = 1, n
      b(i, k) = sin(0.3d0 * i + k)
    end do
  end do
  a0 = a
  x = b
  call dposv('l', n, nrhs, a, n, x, n, info)
  rn = 0d0; xn = 0d0; an = 0d0
  do i = 1, n
    an = max(an, sum(abs(a0(i, :))))
    do k = 1, nrhs
      r = b(i, k) - dot_product(a0(i, :), x(:, k))
      rn = max(rn, abs(r))
      xn = max(xn, abs(x(i, k)))
    end do
  end do
  print '(A,I0,A,ES10.3)', 'info ', info, ' solve ', rn / (an * xn * n * epsilon(1d0))
  deallocate (a, a0, b, x)
end program fortran_probe
