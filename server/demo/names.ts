/** Name lists for demo and synthetic patients: common Indian given and family names. */
export const GIVEN_F = ['Aarti', 'Priya', 'Sunita', 'Meena', 'Kavya', 'Ananya', 'Lakshmi', 'Fatima', 'Deepa', 'Neha', 'Pooja',
  'Rekha', 'Shreya', 'Divya', 'Asha', 'Geeta', 'Nisha', 'Swati', 'Radha', 'Sneha', 'Ayesha', 'Harpreet', 'Jyoti', 'Kiran'];
export const GIVEN_M = ['Rahul', 'Amit', 'Suresh', 'Rajesh', 'Vikram', 'Arjun', 'Imran', 'Sanjay', 'Manoj', 'Ravi', 'Karan',
  'Anil', 'Deepak', 'Rohit', 'Farhan', 'Gurpreet', 'Naveen', 'Prakash', 'Sunil', 'Vijay', 'Ajay', 'Harish', 'Mohan', 'Nikhil'];
export const MIDDLE = ['', '', '', '', 'Kumar', 'Devi', 'Lal', 'Prasad', 'Rani', 'Singh', 'Chandra', 'Bai'];
export const FAMILY = ['Sharma', 'Verma', 'Patel', 'Reddy', 'Iyer', 'Nair', 'Khan', 'Gupta', 'Singh', 'Das', 'Joshi', 'Mehta',
  'Rao', 'Pillai', 'Chatterjee', 'Banerjee', 'Kulkarni', 'Desai', 'Menon', 'Shaikh', 'Bose', 'Mishra', 'Agarwal', 'Naidu',
  'Fernandes', 'Gill', 'Sandhu', 'Yadav', 'Thakur', 'Hegde'];
