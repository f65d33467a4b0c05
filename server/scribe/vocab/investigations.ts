/**
 * Investigations ordered in outpatient clinics: full name, abbreviations and other spoken names, and the LOINC code
 * where one clearly applies (LOINC codes are free to use).
 *
 * One test a line: name | abbreviations and other names (comma separated) | LOINC
 */
const TABLE = `
complete blood count|cbc,hemogram,haemogram,full blood count,fbc,complete haemogram,complete hemogram,cbp,complete blood picture,blood count|58410-2
haemoglobin|hemoglobin,hb,hb level,haemoglobin level|718-7
platelet count|platelets,platelet|777-3
erythrocyte sedimentation rate|esr|30341-2
c-reactive protein|crp,c reactive protein|1988-5
peripheral smear|peripheral blood smear,peripheral smear examination,ps|
peripheral smear for malarial parasite|peripheral smear for malaria,peripheral smear for malarial parasites,peripheral smear for mp,smear for malarial parasite,smear for malaria parasite,mp smear,malaria smear,blood smear for malaria,thick and thin smear|32700-7
malaria antigen rapid card test|malaria antigen card test,malaria antigen test,malaria rapid test,malaria card test,malaria rapid diagnostic test,malaria antigen,rapid malaria test,malaria rdt|
dengue ns1 antigen|ns1 antigen,dengue ns1,ns1,dengue antigen|
dengue serology|dengue igm,dengue igg igm,dengue antibodies|
widal test|widal|
typhidot|typhoid igm,typhidot test|
blood culture|blood culture and sensitivity,blood c s|600-7
urine culture|urine culture and sensitivity,urine c s,urine culture sensitivity|630-4
urine routine examination|urine routine,urine routine test,urine re,urine r e,urine routine and microscopy,urine analysis,urinalysis,urine examination,urine test,urine r m,urine rm|24356-8
stool routine examination|stool routine,stool re,stool r e,stool examination,stool test,stool analysis|
stool examination for ova and cysts|stool for ova and cyst,stool for ova and cysts,stool examination for ova and cyst,stool ova and cyst,stool ova cyst,stool for ova cyst,stool for ova and parasites,stool ova and parasites|
stool occult blood|stool for occult blood,fecal occult blood,faecal occult blood,fobt|
liver function test|lft,lfts,liver function tests,liver profile,liver panel,hepatic function panel|24325-3
kidney function test|kft,rft,renal function test,kidney function tests,renal function tests,renal profile,renal panel|24362-6
serum creatinine|creatinine,s creatinine,creatinine level|2160-0
blood urea|urea,blood urea nitrogen,bun,serum urea|3094-0
serum electrolytes|electrolytes,electrolyte panel,serum sodium and potassium|24326-1
serum potassium|potassium,s potassium|2823-3
serum sodium|sodium,s sodium|2951-2
serum calcium|calcium level,s calcium|17861-6
serum uric acid|uric acid|3084-1
fasting blood sugar|fasting blood glucose,fbs,fasting sugar,fasting glucose,fasting plasma glucose,fpg|1558-6
postprandial blood sugar|ppbs,post prandial blood sugar,pp sugar,post meal sugar,postprandial glucose|
random blood sugar|rbs,random sugar,random glucose,random blood glucose|2345-7
glycated haemoglobin (hba1c)|hba1c,hb a1c,a1c,glycated haemoglobin,glycosylated haemoglobin,glycated hemoglobin,glycosylated hemoglobin|4548-4
oral glucose tolerance test|ogtt,glucose tolerance test,gtt|
fasting lipid profile|lipid profile,lipid panel,fasting lipids,cholesterol profile,lipids|24331-1
thyroid function test|tft,thyroid profile,t3 t4 tsh,thyroid panel|
thyroid stimulating hormone|tsh,serum tsh|3016-3
free t4|ft4,free thyroxine|
serum vitamin b12|vitamin b12 level,vitamin b12,b12 level,serum b12,b12|2132-9
serum vitamin d|vitamin d level,vitamin d3 level,25 hydroxy vitamin d,vitamin d,25 oh vitamin d|62292-8
serum ferritin|ferritin|2276-4
iron studies|serum iron,iron profile,tibc|
gamma-glutamyl transferase (ggt)|ggt,gamma gt,ggtp,gamma glutamyl transferase|2324-2
serum amylase|amylase|1798-8
serum lipase|lipase|3040-3
prothrombin time/inr|pt inr,pt/inr,prothrombin time,inr,pt and inr|5902-2
activated partial thromboplastin time|aptt,ptt|
d-dimer|d dimer|
troponin|troponin i,troponin t,trop i,trop t|10839-9
hepatitis b surface antigen (hbsag)|hbsag,hepatitis b surface antigen,australia antigen,hbs ag|5196-1
anti hcv antibody|anti hcv,hcv antibody,hepatitis c antibody|
hiv test|hiv 1 and 2 antibodies,hiv serology,hiv elisa,hiv antibody test|
vdrl|vdrl test,rpr|
rheumatoid factor|ra factor,rf|
anti ccp antibody|anti ccp|
antinuclear antibody|ana|
aso titre|aso,aso titer,antistreptolysin o|
urine pregnancy test|upt,pregnancy test,urine hcg|
serum beta hcg|beta hcg,bhcg|
prostate specific antigen|psa|2857-1
serum prolactin|prolactin|
hormone profile|lh fsh,fsh lh,lh,fsh|
urine albumin creatinine ratio|uacr,urine acr,albumin creatinine ratio,urine microalbumin,microalbumin|
24 hour urine protein|24 hour urine protein,urine protein 24 hours|
sputum afb|sputum for afb,sputum for acid fast bacilli,sputum smear,sputum afb smear|
cbnaat|genexpert,gene xpert,cbnaat test|
mantoux test|tuberculin skin test,mantoux,tst|
throat swab culture|throat swab,throat culture|
rapid strep test|rapid strep,rapid antigen test for strep,strep test|
rapid influenza test|influenza rapid test,rapid flu test,flu test,rapid influenza antigen test|
covid test|covid rt pcr,rt pcr,covid antigen test,covid 19 test|
pap smear|pap test,cervical smear|
high vaginal swab|hvs,vaginal swab|
semen analysis|semen test|
skin scraping for koh|koh mount,koh smear,koh preparation,skin scraping|
electrocardiogram|ecg,ekg,electrocardiograph|
echocardiography|echo,2d echo,2 d echo,echocardiogram|
treadmill test|tmt,stress test,exercise stress test|
holter monitoring|holter,24 hour holter|
ambulatory blood pressure monitoring|abpm|
chest x-ray|chest x ray,x ray chest,cxr,chest xray,xray chest,x-ray chest,chest radiograph|
x-ray|x ray,xray,radiograph|
ultrasound abdomen|usg abdomen,ultrasound of abdomen,ultrasound whole abdomen,usg whole abdomen,abdominal ultrasound,sonography abdomen,ultrasound abdomen and pelvis,usg abdomen and pelvis|
ultrasound pelvis|usg pelvis,pelvic ultrasound,transvaginal ultrasound,tvs|
obstetric ultrasound|obstetric scan,dating scan,viability scan|
obstetric growth scan|growth scan,fetal growth scan,growth ultrasound|
anomaly scan|level 2 scan,target scan,fetal anomaly scan|
nuchal translucency scan|nt scan|
ultrasound|usg,sonography,ultrasonography|
venous duplex ultrasound|venous doppler,venous duplex,duplex ultrasound,doppler of leg veins,venous duplex scan,lower limb venous doppler|
arterial doppler|arterial duplex,arterial doppler study|
carotid doppler|carotid duplex|
ct scan|ct,computed tomography,cat scan|
ct brain|ct head,ct scan brain,ct scan head|
hrct chest|hrct,ct chest,ct thorax|
mri|mri scan,magnetic resonance imaging|
mri brain|mri head|
mri spine|mri lumbar spine,mri cervical spine,mri ls spine,mri lumbosacral spine|
pulmonary function test|pft,spirometry,lung function test|
peak flow|pefr,peak expiratory flow|
upper gi endoscopy|endoscopy,ogd,ugi endoscopy,upper endoscopy,egd,gastroscopy|
colonoscopy|colonoscopy|
nerve conduction study|ncs,ncv,nerve conduction velocity,emg|
electroencephalogram|eeg|
audiometry|pure tone audiometry,pta,hearing test|
impedance audiometry|tympanometry|
fundoscopy|fundus examination,dilated fundus examination|
visual acuity test|vision test,eye test|
intraocular pressure|iop,tonometry|
dexa scan|bone density scan,bmd,bone mineral density|
mammography|mammogram|
fnac|fine needle aspiration cytology,fine needle aspiration|
biopsy|tissue biopsy,skin biopsy|
nasal endoscopy|diagnostic nasal endoscopy,dne|
laryngoscopy|video laryngoscopy,indirect laryngoscopy|
urine ketones|urine ketone,ketones|
blood grouping and rh typing|blood group,blood grouping,abo rh|
`;

export interface Investigation {
  name: string;
  aliases: string[];
  loinc?: string;
}

export const INVESTIGATIONS: readonly Investigation[] = TABLE.trim().split('\n').map((line) => {
  const [name = '', aliases = '', loinc = ''] = line.split('|');
  return { name, aliases: aliases.split(',').map((s) => s.trim()).filter(Boolean), loinc: loinc || undefined };
});
