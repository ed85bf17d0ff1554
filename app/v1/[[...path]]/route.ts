import { unknownPath } from '@/lib/http/methods';

export const { GET, POST, PUT, PATCH, DELETE } = unknownPath();
