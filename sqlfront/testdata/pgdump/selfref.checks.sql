INSERT INTO public.employee VALUES (7, 'g', 99)
UPDATE public.employee SET manager_id = 42 WHERE id = 3
DELETE FROM public.employee WHERE id = 2
